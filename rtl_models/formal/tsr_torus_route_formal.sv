// Formal harness of tsr_torus_route (scripts/formal.sh, docs/rtl.md "Formal
// properties"): a unicast packet walks hop by hop from its source round a Rows x Cols
// torus, as the store-and-forward nodes pass it on; the harness counts its hops and where
// it wrapped round a ring.
//
// formal: rtl tsr_torus_route
// formal: property tsr_torus_route.dateline k=7 Rows=4 Cols=4
//   asserts=OnePort_A,ColumnsFirst_A,DatelineClass_A,OneWrapPerRing_A,Minimal_A
//   -- one port a hop, columns first, class 1 exactly from the hop that wraps a ring on, one wrap per ring, at most Rows/2 + Cols/2 hops
// formal: property tsr_torus_route.dateline_3x5 k=7 Rows=3 Cols=5
//   asserts=OnePort_A,ColumnsFirst_A,DatelineClass_A,OneWrapPerRing_A,Minimal_A
//   -- as dateline on odd rings
// formal: cover tsr_torus_route.reach t=6 Rows=4 Cols=4
//   -- a packet wraps round both rings and arrives
module tsr_torus_route_formal #(
  parameter int unsigned Rows = 4,
  parameter int unsigned Cols = 4
) (
  input logic clk_i,
  input logic rst_ni
);

  localparam int unsigned E = tsr_pkg::TorusEast;
  localparam int unsigned W = tsr_pkg::TorusWest;
  localparam int unsigned S = tsr_pkg::TorusSouth;
  localparam int unsigned N = tsr_pkg::TorusNorth;
  localparam int unsigned L = tsr_pkg::TorusLocal;

  logic [15:0] src, dst, row_q, col_q, src_row, src_col, dst_row, dst_col;
  logic [tsr_pkg::TorusPorts-1:0] ports;
  logic [tsr_pkg::TorusLinks-1:0] classes;
  tsr_pkg::torus_hdr_t hdr;

  assign src = $anyconst;
  assign dst = $anyconst;
  always_comb assume (32'(src) < Rows * Cols && 32'(dst) < Rows * Cols);
  assign src_row = 16'(32'(src) / Cols);
  assign src_col = 16'(32'(src) % Cols);
  assign dst_row = 16'(32'(dst) / Cols);
  assign dst_col = 16'(32'(dst) % Cols);
  assign hdr = {src, dst, 1'b0, 4'd0, 16'd0, 16'd1};

  tsr_torus_route #(.Rows(Rows), .Cols(Cols), .Trees(1)) dut (
    .row_i (row_q), .col_i (col_q), .fwd_i ('0), .hdr_i (hdr), .ports_o (ports),
    .classes_o (classes)
  );

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb assume (rst_ni == !f_init_q);

  logic       col_wrapped_q, row_wrapped_q, is_col, is_row, wraps, cls;
  logic [4:0] hops_q;
  assign is_col = ports[E] || ports[W];
  assign is_row = ports[S] || ports[N];
  assign wraps  = ports[E] && 32'(col_q) == Cols - 1 || ports[W] && col_q == '0 ||
                  ports[S] && 32'(row_q) == Rows - 1 || ports[N] && row_q == '0;
  assign cls    = ports[E] ? classes[E] : ports[W] ? classes[W] : ports[S] ? classes[S]
                                                                             : classes[N];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_q         <= src_row;
      col_q         <= src_col;
      col_wrapped_q <= 1'b0;
      row_wrapped_q <= 1'b0;
      hops_q        <= '0;
    end else if (!ports[L]) begin
      if (ports[E]) col_q <= 32'(col_q) == Cols - 1 ? '0 : col_q + 1'b1;
      if (ports[W]) col_q <= col_q == '0 ? 16'(Cols - 1) : col_q - 1'b1;
      if (ports[S]) row_q <= 32'(row_q) == Rows - 1 ? '0 : row_q + 1'b1;
      if (ports[N]) row_q <= row_q == '0 ? 16'(Rows - 1) : row_q - 1'b1;
      hops_q        <= hops_q + 5'd1;
      col_wrapped_q <= col_wrapped_q || is_col && wraps;
      row_wrapped_q <= row_wrapped_q || is_row && wraps;
    end
  end

  always_comb begin
    if (rst_ni) begin
      OnePort_A: assert ($onehot(ports));
      ColumnsFirst_A: assert (!is_row || col_q == dst_col);
      DatelineClass_A: assert (ports[L] ||
                               cls == (wraps || (is_col ? col_wrapped_q : row_wrapped_q)));
      OneWrapPerRing_A: assert (!(wraps && (is_col ? col_wrapped_q : row_wrapped_q)));
      Minimal_A: assert (32'(hops_q) + 32'(!ports[L]) <= Rows / 2 + Cols / 2 &&
                         (!ports[L] || row_q == dst_row && col_q == dst_col));
      BothRingsWrapped_C: cover (col_wrapped_q && row_wrapped_q && ports[L]);
    end
  end

endmodule
