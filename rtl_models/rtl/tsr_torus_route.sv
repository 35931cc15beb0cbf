// Route select of a store-and-forward torus node (tsr_torus_node), combinational: the
// ports a packet goes to from here, and the dateline class it takes behind each link
// output (tsr_pkg::torus_dateline). A unicast packet goes dimension order, columns
// first, the shorter way round (ties east/south), and is delivered here (TorusLocal) at
// its destination; a multicast packet goes to every port of its tree's entry in the
// forwarding table (none for an entry the table does not have). Multicast packets stay
// in class 0: a tree's edges point away from its root.
// Not in FST traces: combinational, once per input of every node; the node traces the
// header it reads and the route it gives.
/*verilator tracing_off*/
module tsr_torus_route #(
  /// Torus rows, at least 2.
  parameter int unsigned Rows = 4,
  /// Torus columns, at least 2.
  parameter int unsigned Cols = 4,
  /// Entries of the forwarding table, 1..16.
  parameter int unsigned Trees = 4
) (
  // This node's place.
  input  logic [15:0]                          row_i,
  input  logic [15:0]                          col_i,
  // The forwarding table: entry k is the port mask fwd_i[k * TorusPorts +: TorusPorts].
  input  logic [Trees*tsr_pkg::TorusPorts-1:0] fwd_i,
  // The packet's header (its src, dst, multicast and tree route it). Whole, so that the
  // node passes a header without reading its fields in a generate block, which Yosys
  // 0.23 cannot.
  input  tsr_pkg::torus_hdr_t                  hdr_i,
  // The ports it goes to (bit TorusLocal: delivered here).
  output logic [tsr_pkg::TorusPorts-1:0]       ports_o,
  // Per link output o, the dateline class it takes at the neighbour behind o.
  output logic [tsr_pkg::TorusLinks-1:0]       classes_o
);

  if (Rows < 2 || Cols < 2 || Rows * Cols > 65536) begin : gen_shape_check
    $fatal(1, "tsr_torus_route: needs 2 <= Rows, Cols and Rows * Cols <= 65536");
  end
  if (Trees < 1 || Trees > 16) begin : gen_tree_check
    $fatal(1, "tsr_torus_route: Trees must be 1..16");
  end

  localparam int unsigned TreeWidth = tsr_pkg::idx_width(Trees);

  // The fields that route the packet.
  logic        multicast;
  logic [3:0]  tree;
  logic [15:0] src, dst;
  assign multicast = hdr_i.multicast;
  assign tree      = hdr_i.tree;
  assign src       = hdr_i.src;
  assign dst       = hdr_i.dst;
  // The packet's number and length do not route it.
  logic unused_hdr;
  assign unused_hdr = ^{hdr_i.seq, hdr_i.len};

  logic [15:0] me;
  assign me = 16'(32'(row_i) * Cols + 32'(col_i));

  // The destination's row and column, and its distance in each dimension going south
  // and east (the variables of the block below).
  int unsigned dr, dc, r, c;
  always_comb begin
    r       = 0;
    c       = 0;
    dr      = 0;
    dc      = 0;
    ports_o = '0;
    if (multicast) begin
      if (32'(tree) < Trees) begin
        ports_o = fwd_i[32'(TreeWidth'(tree)) * tsr_pkg::TorusPorts +: tsr_pkg::TorusPorts];
      end
    end else if (dst == me) begin
      ports_o[tsr_pkg::TorusLocal] = 1'b1;
    end else begin
      r  = 32'(dst) / Cols;
      c  = 32'(dst) % Cols;
      dc = (c + Cols - 32'(col_i)) % Cols;
      dr = (r + Rows - 32'(row_i)) % Rows;
      if (dc != 0) ports_o[(dc <= Cols / 2) ? tsr_pkg::TorusEast : tsr_pkg::TorusWest] = 1'b1;
      else ports_o[(dr <= Rows / 2) ? tsr_pkg::TorusSouth : tsr_pkg::TorusNorth] = 1'b1;
    end
  end

  // The neighbours' columns and rows, and the source's.
  logic [15:0] col_e, col_w, row_s, row_n, src_row, src_col;
  assign col_e   = 16'((32'(col_i) + 1) % Cols);
  assign col_w   = 16'((32'(col_i) + Cols - 1) % Cols);
  assign row_s   = 16'((32'(row_i) + 1) % Rows);
  assign row_n   = 16'((32'(row_i) + Rows - 1) % Rows);
  assign src_row = 16'(32'(src) / Cols);
  assign src_col = 16'(32'(src) % Cols);

  always_comb begin
    classes_o = '0;
    if (!multicast) begin
      classes_o[tsr_pkg::TorusEast] =
          tsr_pkg::torus_dateline(tsr_pkg::TorusEast, row_i, col_e, src_row, src_col);
      classes_o[tsr_pkg::TorusWest] =
          tsr_pkg::torus_dateline(tsr_pkg::TorusWest, row_i, col_w, src_row, src_col);
      classes_o[tsr_pkg::TorusSouth] =
          tsr_pkg::torus_dateline(tsr_pkg::TorusSouth, row_s, col_i, src_row, src_col);
      classes_o[tsr_pkg::TorusNorth] =
          tsr_pkg::torus_dateline(tsr_pkg::TorusNorth, row_n, col_i, src_row, src_col);
    end
  end

endmodule
/*verilator tracing_on*/
