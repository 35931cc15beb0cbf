// The network interface of one tile of the circuit-switched hypercube (tsr_cube_node;
// 004_6a57f137dad1d0a3.txt §2). It sends one message at a time: a request accepted in
// cycle t0 spends xi - h cycles of start-up here, presents its setup header to the node
// in cycle t0 + xi - h, waits for the path, and from the cycle the path is complete (S)
// runs the last h cycles of the start-up with the path held (h = xi_held, 0 by default:
// all of the start-up precedes the header, as Boppana counts it). From S' = S + h it
// hands the node one element per cycle, as the sender offers them (tx valid/ready), the
// last one flagged. The path completes S = t0 + xi - h + i tau for i hops when nothing
// blocks, and the node delivers element e at S' + e + i, so an unblocked k-element
// message ends at t0 + xi + i tau + i + k - 1: Boppana's formula, whatever h. The next
// request is accepted in the cycle after the last element left.
//
// The receive side passes the ejection port on: the header when a circuit to this tile
// is set up, then its elements. A circuit has no flow control, so the receiver takes an
// element every cycle one arrives.
module tsr_cube_ni
  import tsr_pkg::*;
#(
  /// Bits of one data element.
  parameter int unsigned DataWidth = 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // This tile's id, the source of its headers.
  input  logic [15:0]          id_i,
  // Start-up cycles of a message, xi >= 0, and how many of them run after the path is
  // set up, with the path held (0 <= xi_held <= xi). Both are taken with the request:
  // they may change between messages (a control message has a start-up of its own).
  input  logic [15:0]          xi_i,
  input  logic [15:0]          xi_held_i,
  // Message requests: destination, sequence number, k elements.
  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  cube_req_t            req_i,
  // The message's elements, in order, taken while tx_ready_o.
  input  logic                 tx_valid_i,
  output logic                 tx_ready_o,
  input  logic [DataWidth-1:0] tx_data_i,
  // To the node's local input.
  output cube_setup_t          inj_setup_o,
  output cube_stream_t         inj_stream_o,
  output logic [DataWidth-1:0] inj_data_o,
  // The circuit from this tile's local input reaches its destination (the top's
  // backward chain over the nodes' crossbars).
  input  logic                 path_i,
  // From the node's ejection port.
  input  cube_setup_t          ej_setup_i,
  input  cube_stream_t         ej_stream_i,
  input  logic [DataWidth-1:0] ej_data_i,
  // To the receiver: a circuit to this tile set up (rx_hdr_o is its header), and its
  // elements. rx_hdr_o stays valid while the elements come.
  output logic                 rx_start_o,
  output cube_hdr_t            rx_hdr_o,
  output logic                 rx_valid_o,
  output logic                 rx_last_o,
  output logic [DataWidth-1:0] rx_data_o
);

  typedef enum logic [2:0] {
    NiIdle,     // no message; the next request is taken
    NiStartup,  // counting the start-up before the header
    NiSetup,    // header sent, waiting for the path
    NiHold,     // path complete, counting the start-up held with it
    NiStream    // handing over the elements
  } ni_state_e;

  ni_state_e   st_q, st_d;
  cube_hdr_t   hdr_q;   // the message being sent
  logic [15:0] wait_q;  // start-up cycles (before the header, or held) to go after this one
  logic [15:0] sent_q;  // elements handed over
  logic [15:0] held_q;  // the message's xi_held, taken with its request

  cube_hdr_t   cur;        // the message this cycle: the request itself when idle
  logic [15:0] lead;       // start-up cycles before the header, xi - xi_held
  logic [15:0] held;       // the message's xi_held: the input while the request is taken
  logic        hdr_now;    // the header goes to the node this cycle
  logic        path_done;  // the path completes this cycle
  logic        streaming;  // the path is complete and the start-up over: elements may go
  logic        last;

  // Three blocks, not one: the header leaves without regard to the path, and the path
  // (which the header's own grant may complete, for a message to this tile) steers the
  // stream; in one block Verilator would see a loop through the node.
  always_comb begin
    cur = (st_q == NiIdle) ? cube_hdr_t'{src: id_i, dst: req_i.dst, seq: req_i.seq, len: req_i.len}
                           : hdr_q;
    lead = xi_i - xi_held_i;
    held = (st_q == NiIdle) ? xi_held_i : held_q;
    // With no start-up before it the header leaves in the cycle the request is taken.
    hdr_now = (st_q == NiIdle && req_valid_i && lead == '0) ||
              (st_q == NiStartup && wait_q == '0);
    last = sent_q + 16'd1 == cur.len;
    req_ready_o       = st_q == NiIdle;
    inj_setup_o.valid = hdr_now;
    inj_setup_o.hdr   = cur;
  end

  always_comb begin
    path_done = (hdr_now || st_q == NiSetup) && path_i;
    streaming = st_q == NiStream || (path_done && held == '0) ||
                (st_q == NiHold && wait_q == '0);
    tx_ready_o         = streaming;
    inj_stream_o.valid = streaming && tx_valid_i;
    inj_stream_o.last  = streaming && tx_valid_i && last;
    inj_data_o         = tx_data_i;
  end

  always_comb begin
    st_d = st_q;
    unique case (st_q)
      NiIdle:    if (req_valid_i) st_d = (lead == '0) ? NiSetup : NiStartup;
      NiStartup: if (wait_q == '0) st_d = NiSetup;
      default:   ;
    endcase
    if (path_done && held != '0) st_d = NiHold;
    if (streaming) st_d = (tx_valid_i && last) ? NiIdle : NiStream;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q   <= NiIdle;
      hdr_q  <= '0;
      wait_q <= '0;
      sent_q <= '0;
      held_q <= '0;
    end else begin
      st_q <= st_d;
      if (st_q == NiIdle && req_valid_i) begin
        hdr_q  <= cur;
        held_q <= xi_held_i;
        wait_q <= lead - 16'd1;
      end else if ((st_q == NiStartup || st_q == NiHold) && wait_q != '0) begin
        wait_q <= wait_q - 16'd1;
      end
      // The held start-up begins in the cycle the path completes (overriding the request's
      // count when a header without start-up finds its path at once).
      if (path_done && held != '0) wait_q <= held - 16'd1;
      if (streaming && tx_valid_i) sent_q <= last ? '0 : sent_q + 16'd1;
    end
  end

  // ---- receive side -------------------------------------------------------------------
  cube_hdr_t rx_hdr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rx_hdr_q <= '0;
    else if (ej_setup_i.valid) rx_hdr_q <= ej_setup_i.hdr;
  end

  assign rx_start_o = ej_setup_i.valid;
  assign rx_hdr_o   = ej_setup_i.valid ? ej_setup_i.hdr : rx_hdr_q;
  assign rx_valid_o = ej_stream_i.valid;
  assign rx_last_o  = ej_stream_i.last;
  assign rx_data_o  = ej_data_i;

`ifndef SYNTHESIS
  // Immediate assertions at the clock edge: a concurrent one samples req_i, and for
  // that copy of the top's whole request array the C++ that Verilator 5.006 generates
  // does not compile.
  logic req_wait_q;  // a request was offered and not taken in the last cycle
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_wait_q <= 1'b0;
    end else begin
      req_wait_q <= req_valid_i && !req_ready_o;
      LengthPositive_A: assert (!(req_valid_i && req_ready_o) || req_i.len != '0)
        else $error("tsr_cube_ni %0d: a message of zero elements", id_i);
      RequestHeld_A: assert (!req_wait_q || req_valid_i)
        else $error("tsr_cube_ni %0d: request withdrawn before it was taken", id_i);
      HeldWithinXi_A: assert (!(req_valid_i && req_ready_o) || xi_held_i <= xi_i)
        else $error("tsr_cube_ni %0d: xi_held %0d exceeds xi %0d", id_i, xi_held_i, xi_i);
      // A circuit stays up until its tail has left; losing it mid-message is a node bug.
      PathHeld_A: assert (!(st_q == NiStream || st_q == NiHold) || path_i)
        else $error("tsr_cube_ni %0d: path lost while streaming", id_i);
    end
  end
`endif

endmodule
