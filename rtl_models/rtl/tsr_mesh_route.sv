// Route select of a wormhole mesh router for one head flit, in the cycle it asks: the
// routing function routing_i (tsr_pkg MeshRoute*, docs/wormhole.md "Routing"; the C++
// statement of the same rules is net/mesh_routing.hpp):
//   MeshRouteXy             columns first, then rows (the machine of Thakur, Choudhary and
//                           Fox, "Complete Exchange on a Wormhole Routed Mesh");
//   MeshRouteYx             rows first, then columns;
//   MeshRouteO1turn         XY for a head of an even-numbered packet of its source, YX
//                           for an odd-numbered one (odd_i; the router keeps the two on
//                           separate VC classes);
//   MeshRouteWestFirst      all westward hops first, then E, S and N adaptively;
//   MeshRouteNorthLast      E, W and S adaptively, northward hops last;
//   MeshRouteNegativeFirst  W and N adaptively first, then E and S adaptively;
//   MeshRouteOddEven        Chiu's odd-even turn model: no E->N or E->S turn in an even
//                           column, no N->W or S->W turn in an odd column.
// Every routing is minimal, so a route never leaves the rectangle spanned by the source
// and the destination, and a smaller mesh run in a corner of a larger one stays inside it.
// Where two outputs are allowed (a column and a row direction), the head asks for the
// one with fewer credits in use behind it (load_i, summed over the VCs in use); a tie
// goes to the column direction. Any other routing_i value routes XY. Combinational.
module tsr_mesh_route
  import tsr_pkg::*;
(
  // This router's place in the mesh.
  input  mesh_coord_t   here_i,
  // The head flit: its destination, its source's column, and its packet's O1TURN class.
  input  mesh_coord_t   dst_i,
  input  logic [5:0]    src_col_i,
  input  logic          odd_i,
  // The routing function, held from reset on.
  input  mesh_routing_t routing_i,
  // Per output link: credits in use behind it, summed over the VCs in use.
  input  logic [15:0]   load_i    [MeshLinks],
  // The output port the head asks for: MeshEast, MeshWest, MeshSouth, MeshNorth or
  // MeshLocal.
  output mesh_port_t    port_o
);

  // The way each dimension still asks for, or MeshLocal when it is done; whether the
  // routing lets the head take it now.
  mesh_port_t col_port, row_port;
  logic       col_ok, row_ok;
  logic       west, north, odd_col;

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
    west    = col_port == mesh_port_t'(MeshWest);
    north   = row_port == mesh_port_t'(MeshNorth);
    odd_col = here_i.col[0];
    // With both dimensions left to go, which the routing allows now.
    unique case (routing_i)
      MeshRouteYx: begin
        col_ok = 1'b0;
        row_ok = 1'b1;
      end
      MeshRouteO1turn: begin
        col_ok = !odd_i;
        row_ok = odd_i;
      end
      MeshRouteWestFirst: begin
        col_ok = 1'b1;
        row_ok = !west;
      end
      MeshRouteNorthLast: begin
        col_ok = 1'b1;
        row_ok = !north;
      end
      MeshRouteNegativeFirst: begin
        col_ok = west || !north;
        row_ok = north || !west;
      end
      MeshRouteOddEven: begin
        if (west) begin
          col_ok = 1'b1;
          row_ok = !odd_col;
        end else begin
          // Eastward: turn now only where an E->N or E->S turn is allowed (an odd column)
          // or before any eastward hop (the source column); go on east unless that ends
          // in an even destination column, where the turn could not be made.
          col_ok = dst_i.col[0] || dst_i.col != here_i.col + 6'd1;
          row_ok = odd_col || here_i.col == src_col_i;
        end
      end
      default: begin  // MeshRouteXy, and any value not defined
        col_ok = 1'b1;
        row_ok = 1'b0;
      end
    endcase
    if (col_port == mesh_port_t'(MeshLocal)) begin
      port_o = row_port;
    end else if (row_port == mesh_port_t'(MeshLocal)) begin
      port_o = col_port;
    end else if (col_ok && row_ok) begin
      port_o = load_i[row_port[1:0]] < load_i[col_port[1:0]] ? row_port : col_port;
    end else begin
      port_o = row_ok ? row_port : col_port;
    end
  end

endmodule
