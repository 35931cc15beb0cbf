// Formal harness of tsr_mesh_route (scripts/formal.sh, docs/rtl.md "Formal properties").
// Mesh (Torus = 0): one head at any place inside the rectangle spanned by its source and
// its destination, any routing function, any loads and O1TURN class; combinational, so
// the induction is trivial and the base case covers every input. Torus (Torus = 1): a
// head walks hop by hop from its source, as the routers pass it on, round a rows x cols
// torus (2..6 each, held) in XY or YX order; the harness counts its hops and where it
// wrapped round a ring.
//
// formal: rtl tsr_mesh_route
// formal: property tsr_mesh_route.xy_legal k=2 Torus=0
//   asserts=XyLegal_A,YxLegal_A,O1turnLegal_A
//   -- XY goes columns first, YX rows first, O1TURN XY for even and YX for odd packets, each toward the destination
// formal: property tsr_mesh_route.rectangle k=2 Torus=0
//   asserts=InRectangle_A,LocalAtDestination_A,MeshClassZero_A
//   -- every routing: the next hop stays in the source-destination rectangle and comes closer; local exactly at the destination
// formal: property tsr_mesh_route.turn_rules k=2 Torus=0
//   asserts=WestFirst_A,NorthLast_A,NegativeFirst_A
//   -- west-first goes west before any other way, north-last north only when nothing else is left, negative-first W and N first
// formal: property tsr_mesh_route.torus_dateline k=10 Torus=1
//   asserts=TorusClass_A,OneWrapPerRing_A,TorusMinimal_A,TorusDimensionOrder_A
//   -- torus: class 1 exactly from the hop that wraps a ring on, one wrap per ring, dimension order, at most rows/2 + cols/2 hops
// formal: cover tsr_mesh_route.reach t=8 Torus=1
//   -- a head wraps round both rings and arrives
module tsr_mesh_route_formal #(
  parameter bit Torus = 1'b0
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input tsr_pkg::mesh_coord_t here_i,
  input logic                 odd_i,
  input logic [16*tsr_pkg::MeshLinks-1:0] load_i,
  input tsr_pkg::mesh_routing_t routing_i
);

  localparam logic [2:0] E = 3'(tsr_pkg::MeshEast);
  localparam logic [2:0] W = 3'(tsr_pkg::MeshWest);
  localparam logic [2:0] S = 3'(tsr_pkg::MeshSouth);
  localparam logic [2:0] N = 3'(tsr_pkg::MeshNorth);
  localparam logic [2:0] L = 3'(tsr_pkg::MeshLocal);

  tsr_pkg::mesh_coord_t here, dst, src, pos_q;
  tsr_pkg::mesh_routing_t routing;
  logic [6:0] rows, cols;
  logic [5:0] east_col, west_col, south_row, north_row;
  tsr_pkg::mesh_port_t port;
  logic upper;

  assign dst  = $anyconst;
  assign src  = $anyconst;
  assign rows = $anyconst;
  assign cols = $anyconst;

  logic [5:0] here_row, here_col, dst_row, dst_col, src_row, src_col;
  assign here_row = here.row;
  assign here_col = here.col;
  assign dst_row  = dst.row;
  assign dst_col  = dst.col;
  assign src_row  = src.row;
  assign src_col  = src.col;

  if (Torus) begin : gen_walk
    assign here    = pos_q;
    assign routing = $anyconst;
    always_comb assume (routing == tsr_pkg::MeshRouteXy || routing == tsr_pkg::MeshRouteYx);
    always_comb assume (rows >= 7'd2 && rows <= 7'd6 && cols >= 7'd2 && cols <= 7'd6);
    always_comb assume (7'(src_row) < rows && 7'(src_col) < cols && 7'(dst_row) < rows &&
                        7'(dst_col) < cols);
    logic unused_in;
    assign unused_in = ^{here_i, routing_i};
  end else begin : gen_place
    assign here    = here_i;
    assign routing = routing_i;
    // Anywhere in the source-destination rectangle.
    always_comb assume ((here_row >= src_row && here_row <= dst_row ||
                         here_row <= src_row && here_row >= dst_row) &&
                        (here_col >= src_col && here_col <= dst_col ||
                         here_col <= src_col && here_col >= dst_col));
  end

  // The neighbours round the torus, as the router gives them.
  assign east_col  = 7'(here_col) + 7'd1 == cols ? 6'd0 : here_col + 6'd1;
  assign west_col  = here_col == 6'd0 ? 6'(cols - 7'd1) : here_col - 6'd1;
  assign south_row = 7'(here_row) + 7'd1 == rows ? 6'd0 : here_row + 6'd1;
  assign north_row = here_row == 6'd0 ? 6'(rows - 7'd1) : here_row - 6'd1;

  tsr_mesh_route #(.Wrap(1)) dut (
    .here_i (here), .dst_i (dst), .src_i (src), .odd_i, .wrap_i (Torus), .rows_i (rows),
    .cols_i (cols), .east_col_i (east_col), .west_col_i (west_col), .south_row_i (south_row),
    .north_row_i (north_row), .routing_i (routing), .load_i, .port_o (port), .upper_o (upper)
  );

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  // The dimension-order ports toward the destination on a mesh.
  logic [2:0] col_way, row_way;
  assign col_way = dst_col > here_col ? E : dst_col < here_col ? W : L;
  assign row_way = dst_row > here_row ? S : dst_row < here_row ? N : L;

  // The torus walk: the head moves to the neighbour behind its port every cycle.
  logic       col_wrapped_q, row_wrapped_q, row_hop_seen_q, col_hop_seen_q;
  logic [4:0] hops_q;
  logic       is_col, is_row, wraps;
  assign is_col = port == E || port == W;
  assign is_row = port == S || port == N;
  assign wraps  = port == E && 7'(here_col) + 7'd1 == cols || port == W && here_col == 6'd0 ||
                  port == S && 7'(here_row) + 7'd1 == rows || port == N && here_row == 6'd0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_q          <= src;
      col_wrapped_q  <= 1'b0;
      row_wrapped_q  <= 1'b0;
      col_hop_seen_q <= 1'b0;
      row_hop_seen_q <= 1'b0;
      hops_q         <= '0;
    end else if (port != L) begin
      pos_q          <= {port == S ? south_row : port == N ? north_row : here_row,
                         port == E ? east_col : port == W ? west_col : here_col};
      hops_q         <= hops_q + 5'd1;
      col_wrapped_q  <= col_wrapped_q || is_col && wraps;
      row_wrapped_q  <= row_wrapped_q || is_row && wraps;
      col_hop_seen_q <= col_hop_seen_q || is_col;
      row_hop_seen_q <= row_hop_seen_q || is_row;
    end
  end

  always_comb begin
    if (rst_ni && !Torus) begin
      XyLegal_A: assert (routing != tsr_pkg::MeshRouteXy ||
                         port == (col_way != L ? col_way : row_way));
      YxLegal_A: assert (routing != tsr_pkg::MeshRouteYx ||
                         port == (row_way != L ? row_way : col_way));
      O1turnLegal_A: assert (routing != tsr_pkg::MeshRouteO1turn ||
                             port == (odd_i ? (row_way != L ? row_way : col_way)
                                            : (col_way != L ? col_way : row_way)));
      // The next hop is one of the (at most two) ways toward the destination, so it
      // stays in the rectangle.
      InRectangle_A: assert (port == L || port == col_way || port == row_way);
      LocalAtDestination_A: assert ((port == L) == (col_way == L && row_way == L));
      MeshClassZero_A: assert (!upper);
      WestFirst_A: assert (routing != tsr_pkg::MeshRouteWestFirst || col_way != W || port == W);
      NorthLast_A: assert (routing != tsr_pkg::MeshRouteNorthLast || port != N || col_way == L);
      NegativeFirst_A: assert (routing != tsr_pkg::MeshRouteNegativeFirst ||
                               !(col_way == W || row_way == N) || port == W || port == N);
    end
    if (rst_ni && Torus) begin
      // Dateline: the link asked for is of class 1 exactly when it wraps round its ring
      // or the head wrapped round that ring before.
      TorusClass_A: assert (port == L ||
                            upper == (wraps || (is_col ? col_wrapped_q : row_wrapped_q)));
      OneWrapPerRing_A: assert (!(wraps && (is_col ? col_wrapped_q : row_wrapped_q)));
      TorusMinimal_A: assert (32'(hops_q) + 32'(port != L) <= 32'(rows / 2) + 32'(cols / 2) &&
                              (port != L || pos_q == dst));
      TorusDimensionOrder_A: assert (routing == tsr_pkg::MeshRouteXy ? !(is_col && row_hop_seen_q)
                                                                     : !(is_row && col_hop_seen_q));
      BothRingsWrapped_C: cover (col_wrapped_q && row_wrapped_q && port == L);
    end
  end

  logic unused_src;
  assign unused_src = ^{src_row, src_col};

endmodule
