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
// goes to the column direction. Any other routing_i value routes XY.
//
// On a torus (wrap_i, rows_i x cols_i, with wraparound links) the head goes in dimension
// order (MeshRouteYx rows first, any other routing_i columns first), each ring the
// shorter way round, east or south when both ways are as long; upper_o is the dateline
// class of the link it asks for (net/mesh_routing.hpp, torus_class): 1 when that link
// wraps around or the head wrapped before in the same ring, which in dimension order is
// exactly when the next column is below the source's column going east (above it going
// west), rows alike. Combinational.
module tsr_mesh_route
#(
  /// 1: the torus logic is built (wrap_i); 0 leaves it out (a mesh only, wrap_i ignored).
  parameter int unsigned Wrap = 1
) (
  // This router's place in the mesh.
  input  tsr_pkg::mesh_coord_t   here_i,
  // The head flit: its destination, its source, and its packet's O1TURN class.
  input  tsr_pkg::mesh_coord_t   dst_i,
  input  tsr_pkg::mesh_coord_t   src_i,
  input  logic          odd_i,
  // A torus of rows_i x cols_i (1..64 each), held from reset on; a mesh when wrap_i is 0.
  input  logic          wrap_i,
  input  logic [6:0]    rows_i,
  input  logic [6:0]    cols_i,
  // ... and the columns and rows next to this router each way round (the router's, once).
  input  logic [5:0]    east_col_i,
  input  logic [5:0]    west_col_i,
  input  logic [5:0]    south_row_i,
  input  logic [5:0]    north_row_i,
  // The routing function, held from reset on.
  input  tsr_pkg::mesh_routing_t routing_i,
  // Per output link l: credits in use behind it, summed over the VCs in use, at
  // [16 l +: 16].
  input  logic [16*tsr_pkg::MeshLinks-1:0] load_i,
  // The output port the head asks for: MeshEast, MeshWest, MeshSouth, MeshNorth or
  // MeshLocal.
  output tsr_pkg::mesh_port_t    port_o,
  // The dateline class of port_o on a torus (0 on a mesh and at MeshLocal).
  output logic          upper_o
);

  // The torus, where it is built: a constant 0 on a mesh-only router, so that the
  // torus logic folds away.
  logic wrap;
  assign wrap = Wrap != 0 && wrap_i;

  // The way each dimension still asks for, or MeshLocal when it is done; whether the
  // routing lets the head take it now.
  tsr_pkg::mesh_port_t col_port, row_port;
  logic       col_ok, row_ok;
  logic       west, north, odd_col;

  // The torus: hops the positive way (east, south) round each ring.
  logic [7:0] plus_col, plus_row;

  always_comb begin
    plus_col = '0;
    plus_row = '0;
    if (wrap) begin
      // The shorter way round: east when 2 plus_col <= cols_i (a tie included), south
      // when 2 plus_row <= rows_i.
      plus_col = dst_i.col >= here_i.col ? 8'(dst_i.col) - 8'(here_i.col)
                                         : 8'(dst_i.col) + 8'(cols_i) - 8'(here_i.col);
      plus_row = dst_i.row >= here_i.row ? 8'(dst_i.row) - 8'(here_i.row)
                                         : 8'(dst_i.row) + 8'(rows_i) - 8'(here_i.row);
      if (dst_i.col == here_i.col) begin
        col_port = 3'(tsr_pkg::MeshLocal);
      end else begin
        col_port = {plus_col, 1'b0} <= {2'b0, cols_i} ? 3'(tsr_pkg::MeshEast)
                                                      : 3'(tsr_pkg::MeshWest);
      end
      if (dst_i.row == here_i.row) begin
        row_port = 3'(tsr_pkg::MeshLocal);
      end else begin
        row_port = {plus_row, 1'b0} <= {2'b0, rows_i} ? 3'(tsr_pkg::MeshSouth)
                                                      : 3'(tsr_pkg::MeshNorth);
      end
    end else begin
      if (dst_i.col == here_i.col) begin
        col_port = 3'(tsr_pkg::MeshLocal);
      end else begin
        col_port = dst_i.col > here_i.col ? 3'(tsr_pkg::MeshEast) : 3'(tsr_pkg::MeshWest);
      end
      if (dst_i.row == here_i.row) begin
        row_port = 3'(tsr_pkg::MeshLocal);
      end else begin
        row_port = dst_i.row > here_i.row ? 3'(tsr_pkg::MeshSouth) : 3'(tsr_pkg::MeshNorth);
      end
    end
    west    = col_port == 3'(tsr_pkg::MeshWest);
    north   = row_port == 3'(tsr_pkg::MeshNorth);
    odd_col = here_i.col[0];
    // With both dimensions left to go, which the routing allows now (a torus: dimension
    // order only).
    if (wrap) begin
      col_ok = routing_i != tsr_pkg::MeshRouteYx;
      row_ok = routing_i == tsr_pkg::MeshRouteYx;
    end else unique case (routing_i)
      tsr_pkg::MeshRouteYx: begin
        col_ok = 1'b0;
        row_ok = 1'b1;
      end
      tsr_pkg::MeshRouteO1turn: begin
        col_ok = !odd_i;
        row_ok = odd_i;
      end
      tsr_pkg::MeshRouteWestFirst: begin
        col_ok = 1'b1;
        row_ok = !west;
      end
      tsr_pkg::MeshRouteNorthLast: begin
        col_ok = 1'b1;
        row_ok = !north;
      end
      tsr_pkg::MeshRouteNegativeFirst: begin
        col_ok = west || !north;
        row_ok = north || !west;
      end
      tsr_pkg::MeshRouteOddEven: begin
        if (west) begin
          col_ok = 1'b1;
          row_ok = !odd_col;
        end else begin
          // Eastward: turn now only where an E->N or E->S turn is allowed (an odd column)
          // or before any eastward hop (the source column); go on east unless that ends
          // in an even destination column, where the turn could not be made.
          col_ok = dst_i.col[0] || dst_i.col != here_i.col + 6'd1;
          row_ok = odd_col || here_i.col == src_i.col;
        end
      end
      default: begin  // MeshRouteXy, and any value not defined
        col_ok = 1'b1;
        row_ok = 1'b0;
      end
    endcase
    if (col_port == 3'(tsr_pkg::MeshLocal)) begin
      port_o = row_port;
    end else if (row_port == 3'(tsr_pkg::MeshLocal)) begin
      port_o = col_port;
    end else if (col_ok && row_ok) begin
      port_o = load_i[16*row_port[1:0]+:16] < load_i[16*col_port[1:0]+:16] ? row_port
                                                                           : col_port;
    end else begin
      port_o = row_ok ? row_port : col_port;
    end
    upper_o = 1'b0;
    if (wrap) begin
      if (port_o == 3'(tsr_pkg::MeshEast)) begin
        upper_o = east_col_i < src_i.col;
      end else if (port_o == 3'(tsr_pkg::MeshWest)) begin
        upper_o = west_col_i > src_i.col;
      end else if (port_o == 3'(tsr_pkg::MeshSouth)) begin
        upper_o = south_row_i < src_i.row;
      end else if (port_o == 3'(tsr_pkg::MeshNorth)) begin
        upper_o = north_row_i > src_i.row;
      end
    end
  end

endmodule
