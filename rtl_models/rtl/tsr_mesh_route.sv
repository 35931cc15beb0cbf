// Route select of a wormhole mesh router, dimension order: XY (MeshRouteXy), columns
// first, then rows, then the local port (the machine of Thakur, Choudhary and Fox,
// "Complete Exchange on a Wormhole Routed Mesh"; docs/wormhole.md), or YX (MeshRouteYx),
// rows first. A route never leaves the rectangle spanned by the source and the
// destination, so a smaller mesh run in a corner of a larger one stays inside it.
// Combinational.
module tsr_mesh_route
  import tsr_pkg::*;
(
  // This router's place in the mesh.
  input  mesh_coord_t here_i,
  // The destination of the head flit being routed.
  input  mesh_coord_t dst_i,
  // The routing function, MeshRouteXy or MeshRouteYx (any other value routes XY).
  input  mesh_routing_t routing_i,
  // The output port the head asks for: MeshEast, MeshWest, MeshSouth, MeshNorth or
  // MeshLocal.
  output mesh_port_t  port_o
);

  // The way each dimension still asks for, or MeshLocal when it is done.
  mesh_port_t col_port, row_port;

  always_comb begin
    if (dst_i.col > here_i.col) begin
      col_port = mesh_port_t'(MeshEast);
    end else if (dst_i.col < here_i.col) begin
      col_port = mesh_port_t'(MeshWest);
    end else begin
      col_port = mesh_port_t'(MeshLocal);
    end
    if (dst_i.row > here_i.row) begin
      row_port = mesh_port_t'(MeshSouth);
    end else if (dst_i.row < here_i.row) begin
      row_port = mesh_port_t'(MeshNorth);
    end else begin
      row_port = mesh_port_t'(MeshLocal);
    end
    if (routing_i == MeshRouteYx) begin
      port_o = row_port != mesh_port_t'(MeshLocal) ? row_port : col_port;
    end else begin
      port_o = col_port != mesh_port_t'(MeshLocal) ? col_port : row_port;
    end
  end

endmodule
