// A car-cabin-like cavity (the shape of the built-in mesh "builtin:cabin"): side profile
// with footwell, windscreen, roof and rear window, extruded across the car; dashboard,
// two front seats and a rear bench cut out. Groups: firewall (x = 0, the vibrating
// panel), seats, dashboard, walls. Mesh size h: gmsh -3 -setnumber h 0.05 cabin.geo
SetFactory("OpenCASCADE");
DefineConstant[ h = {0.1, Name "mesh size"} ];
W = 1.4;
Point(1) = {0.0, -W / 2, 0.0};
Point(2) = {2.8, -W / 2, 0.0};
Point(3) = {2.8, -W / 2, 0.85};
Point(4) = {2.2, -W / 2, 1.15};
Point(5) = {1.1, -W / 2, 1.15};
Point(6) = {0.3, -W / 2, 0.75};
Point(7) = {0.0, -W / 2, 0.75};
For i In {1:7}
  Line(i) = {i, i % 7 + 1};
EndFor
Curve Loop(1) = {1:7};
Plane Surface(1) = {1};
cabin() = Extrude {0, W, 0} { Surface{1}; };
Box(10) = {-0.1, -W, 0.5, 0.55, 2 * W, 1.0};   // dashboard
Box(11) = {1.2, 0.1, 0, 0.55, 0.5, 0.45};      // front seat cushions
Box(12) = {1.2, -0.6, 0, 0.55, 0.5, 0.45};
Box(13) = {1.6, 0.1, 0, 0.15, 0.5, 0.95};      // front seat backs
Box(14) = {1.6, -0.6, 0, 0.15, 0.5, 0.95};
Box(15) = {2.1, -0.6, 0, 0.55, 1.2, 0.45};     // rear bench
Box(16) = {2.5, -0.6, 0, 0.15, 1.2, 0.9};
air() = BooleanDifference{ Volume{cabin(1)}; Delete; }{ Volume{10:16}; Delete; };
eps = 1e-6;
firewall() = Surface In BoundingBox{-eps, -W, -eps, eps, W, 0.5 + eps};
dashboard() = Surface In BoundingBox{-eps, -W, 0.5 - eps, 0.45 + eps, W, 1.2};
seats() = Surface In BoundingBox{1.2 - eps, -0.6 - eps, -eps, 1.75 + eps, 0.6 + eps, 0.95 + eps};
seats() += Surface In BoundingBox{2.1 - eps, -0.6 - eps, -eps, 2.65 + eps, 0.6 + eps, 0.9 + eps};
Physical Surface("firewall") = {firewall()};
Physical Surface("dashboard") = {dashboard()};
Physical Surface("seats") = {seats()};
Physical Surface("walls") = Surface{:};
Physical Surface("walls") -= {firewall(), dashboard(), seats()};
Physical Volume("air") = {air()};
Mesh.CharacteristicLengthMax = h;
Mesh.CharacteristicLengthMin = h / 2;
