// Output serializer of a store-and-forward torus node (tsr_torus_node): sends a granted
// packet over one output, the header in the cycle of the grant and payload byte k
// first_wait_i + 1 + k (next_wait_i + 1) cycles after it. A link output is given beta +
// tau - 2 and tau - 1, so byte k goes in cycle beta + tau (k + 1) - 1 of the hop and the
// hop holds the link for beta + tau len cycles; the local output 0 and 0, a byte a cycle
// after the header. The output is busy, and takes no grant, until its last byte goes.
// FST traces show its state; its ports are the node's signals, traced there.
/*verilator tracing_off*/
module tsr_torus_serializer #(
  /// Input ports of the node the packets come from.
  parameter int unsigned Inputs = tsr_pkg::TorusPorts,
  /// Packet buffers per input.
  parameter int unsigned Buffers = 4,
  /// Largest payload in bytes, 1..65535.
  parameter int unsigned MaxBytes = 64,
  /// Width of an input index; derived, do not override.
  localparam int unsigned SrcWidth = tsr_pkg::idx_width(Inputs),
  /// Width of a buffer index; derived, do not override.
  localparam int unsigned SlotWidth = tsr_pkg::idx_width(Buffers),
  /// Width of a payload byte index; derived, do not override.
  localparam int unsigned ByteWidth = tsr_pkg::idx_width(MaxBytes),
  /// Width of a wait; holds beta + tau.
  localparam int unsigned WaitWidth = 17
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // The waits before the first byte and between two bytes (above).
  input  logic [WaitWidth-1:0]  first_wait_i,
  input  logic [WaitWidth-1:0]  next_wait_i,
  // A grant (only while not busy_o): the packet in buffer grant_slot_i of input
  // grant_src_i, with header grant_hdr_i.
  input  logic                  grant_i,
  input  logic [SrcWidth-1:0]   grant_src_i,
  input  logic [SlotWidth-1:0]  grant_slot_i,
  input  tsr_pkg::torus_hdr_t   grant_hdr_i,
  // The packet being sent, and the byte the payload read gives back (data_i).
  output logic                  busy_o,
  output logic [SrcWidth-1:0]   src_o,
  output logic [SlotWidth-1:0]  slot_o,
  output logic [ByteWidth-1:0]  byte_o,
  input  logic [7:0]            data_i,
  // The packet's last byte goes this cycle: its buffer is done with this output.
  output logic                  last_o,
  // What crosses the output this cycle.
  output tsr_pkg::torus_link_t  link_o
`ifdef FORMAL
  ,
  // For the proofs (tsr_torus_node_formal.sv): payload bytes of the packet still to send.
  output logic [15:0]           f_left_o
`endif
);

  if (Inputs < 1 || Buffers < 1 || MaxBytes < 1 || MaxBytes > 65535) begin : gen_param_check
    $fatal(1, "tsr_torus_serializer: Inputs, Buffers must be at least 1 and MaxBytes 1..65535");
  end

  /*verilator tracing_on*/
  logic                 busy_d, busy_q;
  logic [SrcWidth-1:0]  src_d, src_q;
  logic [SlotWidth-1:0] slot_d, slot_q;
  logic [ByteWidth-1:0] byte_d, byte_q;
  logic [WaitWidth-1:0] wait_d, wait_q;
  logic [15:0]          len_d, len_q;  // the packet's payload bytes
  /*verilator tracing_off*/
  logic                 emit;

  assign busy_o = busy_q;
  assign src_o  = src_q;
  assign slot_o = slot_q;
  assign byte_o = byte_q;
  assign emit   = busy_q && wait_q == '0;
  assign last_o = emit && 32'(byte_q) + 1 == 32'(len_q);

  always_comb begin
    link_o = '0;
    if (grant_i) begin
      link_o.hdr_valid = 1'b1;
      link_o.hdr       = grant_hdr_i;
    end
    if (emit) begin
      link_o.byte_valid = 1'b1;
      link_o.data       = data_i;
    end
  end

  always_comb begin
    busy_d = busy_q;
    src_d  = src_q;
    slot_d = slot_q;
    byte_d = byte_q;
    wait_d = wait_q;
    len_d  = len_q;
    if (grant_i) begin
      busy_d = 1'b1;
      src_d  = grant_src_i;
      slot_d = grant_slot_i;
      byte_d = '0;
      wait_d = first_wait_i;
      len_d  = grant_hdr_i.len;
    end else if (busy_q) begin
      if (emit) begin
        byte_d = byte_q + 1'b1;
        wait_d = next_wait_i;
        if (last_o) busy_d = 1'b0;
      end else begin
        wait_d = wait_q - 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      src_q  <= '0;
      slot_q <= '0;
      byte_q <= '0;
      wait_q <= '0;
      len_q  <= '0;
    end else begin
      busy_q <= busy_d;
      src_q  <= src_d;
      slot_q <= slot_d;
      byte_q <= byte_d;
      wait_q <= wait_d;
      len_q  <= len_d;
    end
  end

`ifdef FORMAL
  // Only Yosys -formal reads this (docs/rtl.md "Formal properties"): a packet being sent
  // has 1..MaxBytes bytes, some still to go, and waits no longer than a hop's first wait
  // or the wait between two bytes (the inductive invariant of the node's proof).
  assign f_left_o = busy_q ? len_q - 16'(byte_q) : '0;
  always_comb begin
    if (rst_ni) begin
      SerialState_A: assert (!busy_q || len_q != '0 && 32'(len_q) <= MaxBytes &&
                             32'(byte_q) < 32'(len_q) &&
                             (wait_q <= first_wait_i || wait_q <= next_wait_i));
    end
  end
`endif

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      GrantWhenIdle_A: assert (!(grant_i && busy_q))
        else $error("%m: grant while a packet is being sent");
    end
  end
`endif

endmodule
/*verilator tracing_on*/
