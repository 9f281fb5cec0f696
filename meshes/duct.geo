// Rectangular duct along x for the plane-wave check: u = 1 on the inlet (x = 0), an
// absorbing outlet (x = L), rigid walls. Mesh size h: gmsh -3 -setnumber h 0.05 duct.geo
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.1, Name "mesh size"}, L = {1.0, Name "length"}, W = {0.25, Name "width"} ];
Box(1) = {0, 0, 0, L, W, W};
eps = 1e-6;
Physical Surface("inlet") = Surface In BoundingBox{-eps, -eps, -eps, eps, W + eps, W + eps};
Physical Surface("outlet") = Surface In BoundingBox{L - eps, -eps, -eps, L + eps, W + eps, W + eps};
Physical Surface("walls") = Surface{:};
Physical Surface("walls") -= {Surface In BoundingBox{-eps, -eps, -eps, eps, W + eps, W + eps}};
Physical Surface("walls") -= {Surface In BoundingBox{L - eps, -eps, -eps, L + eps, W + eps, W + eps}};
Physical Volume("air") = {1};
Mesh.CharacteristicLengthMax = h;
Mesh.CharacteristicLengthMin = h / 2;
