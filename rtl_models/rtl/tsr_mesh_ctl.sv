// The fields of a mesh flit's control word (tsr_pkg::mesh_ctl_t), and the word with another
// VC. Combinational; a module rather than inline field selects because Yosys 0.23 reads
// a struct's field only on a scalar variable or port (docs/rtl.md, "Style"), and an
// instance per flit keeps each field a signal of its own, so that a Verilated model
// evaluates what depends on one port's flit apart from the others.
module tsr_mesh_ctl (
  input  tsr_pkg::mesh_ctl_t   ctl_i,
  // The VC ctl_vc_o carries.
  input  logic [1:0]           vc_i,
  output logic                 head_o,
  output logic                 tail_o,
  output logic                 odd_o,
  output logic [1:0]           vc_o,
  output tsr_pkg::mesh_coord_t dst_o,
  output tsr_pkg::mesh_coord_t src_o,
  // The coordinates' rows and columns, for the tops' tile ports.
  output logic [5:0]           dst_row_o,
  output logic [5:0]           dst_col_o,
  output logic [5:0]           src_row_o,
  output logic [5:0]           src_col_o,
  // ctl_i with vc_i as its VC (a router's output sets the VC the flit holds there).
  output tsr_pkg::mesh_ctl_t   ctl_vc_o
);

  assign head_o = ctl_i.head;
  assign tail_o = ctl_i.tail;
  assign odd_o  = ctl_i.odd;
  assign vc_o   = ctl_i.vc;
  assign dst_o  = ctl_i.dst;
  assign src_o  = ctl_i.src;
  assign dst_row_o = ctl_i.dst.row;
  assign dst_col_o = ctl_i.dst.col;
  assign src_row_o = ctl_i.src.row;
  assign src_col_o = ctl_i.src.col;

  always_comb begin
    ctl_vc_o    = ctl_i;
    ctl_vc_o.vc = vc_i;
  end

endmodule
