#pragma once
// Everything a plugin author needs, in one include.
#include <solvent/abi.hpp>
#include <solvent/conversion.hpp>
#include <solvent/errors.hpp>
#include <solvent/integrator.hpp>
#include <solvent/io/output.hpp>
#include <solvent/linear_solver.hpp>
#include <solvent/memory.hpp>
#include <solvent/model.hpp>
#include <solvent/observer.hpp>
#include <solvent/operator.hpp>
#include <solvent/parameters.hpp>
#include <solvent/plugin.hpp>
#include <solvent/preconditioner.hpp>
