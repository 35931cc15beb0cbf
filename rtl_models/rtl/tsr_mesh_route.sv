// Route select of a wormhole mesh router: XY dimension order, columns first, then rows,
// then the local port (the machine of Thakur, Choudhary and Fox, "Complete Exchange on a
// Wormhole Routed Mesh"; docs/wormhole.md). A route never leaves the rectangle spanned
// by the source and the destination, so a smaller mesh run in a corner of a larger one
// stays inside it. Combinational.
module tsr_mesh_route
  import tsr_pkg::*;
(
  // This router's place in the mesh.
  input  mesh_coord_t here_i,
  // The destination of the head flit being routed.
  input  mesh_coord_t dst_i,
  // The output port the head asks for: MeshEast, MeshWest, MeshSouth, MeshNorth or
  // MeshLocal.
  output mesh_port_t  port_o
);

  always_comb begin
    if (dst_i.col > here_i.col) begin
      port_o = mesh_port_t'(MeshEast);
    end else if (dst_i.col < here_i.col) begin
      port_o = mesh_port_t'(MeshWest);
    end else if (dst_i.row > here_i.row) begin
      port_o = mesh_port_t'(MeshSouth);
    end else if (dst_i.row < here_i.row) begin
      port_o = mesh_port_t'(MeshNorth);
    end else begin
      port_o = mesh_port_t'(MeshLocal);
    end
  end

endmodule
