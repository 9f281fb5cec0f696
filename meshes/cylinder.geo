// Cylindrical cavity, axis z: u = 1 on the inlet disk (z = 0), an absorbing outlet disk
// (z = L), rigid mantle. Mesh size h: gmsh -3 -setnumber h 0.05 cylinder.geo
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.1, Name "mesh size"}, R = {0.5, Name "radius"}, L = {2.0, Name "length"} ];
Cylinder(1) = {0, 0, 0, 0, 0, L, R};
eps = 1e-6;
inlet() = Surface In BoundingBox{-R - eps, -R - eps, -eps, R + eps, R + eps, eps};
outlet() = Surface In BoundingBox{-R - eps, -R - eps, L - eps, R + eps, R + eps, L + eps};
Physical Surface("inlet") = {inlet()};
Physical Surface("outlet") = {outlet()};
Physical Surface("walls") = Surface{:};
Physical Surface("walls") -= {inlet(), outlet()};
Physical Volume("air") = {1};
Mesh.CharacteristicLengthMax = h;
Mesh.CharacteristicLengthMin = h / 2;
