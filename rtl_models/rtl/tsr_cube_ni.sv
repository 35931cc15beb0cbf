// The network interface of one tile of the circuit-switched hypercube (tsr_cube_node;
// Boppana90 §2). A request accepted in cycle t0 spends xi - h cycles of
// start-up here, presents its setup header to the node in cycle t0 + xi - h, waits for
// the path, and from the cycle the path is complete (S) runs the last h cycles of the
// start-up with the path held (h = xi_held, 0 by default: all of the start-up precedes
// the header, as Boppana counts it). From S' = S + h it hands the node one element per
// cycle, as the sender offers them (tx valid/ready), the last one flagged. The path
// completes S = t0 + xi - h + i tau for i hops when nothing blocks, and the node
// delivers element e at S' + e + i, so an unblocked k-element message ends at
// t0 + xi + i tau + i + k - 1: Boppana's formula, whatever h.
//
// Two message slots, each on a local input of the node, take the requests in turn, and
// their messages stream in the order taken. A request is accepted when both slots are
// free: in the cycle after the last element of the message before left. With pre-setup
// (presetup_i; Boppana and Raghavendra §3.3, their AAP') a request is also accepted
// while one message is still handed over, if
//   - that message's path completed in an earlier cycle (its slot is past setup), and
//   - the first output of the new path at this node is free: not reserved at the end of
//     the last cycle (the node's busy_o: an output granted in this very cycle still
//     counts as free, and the new header asks for it like any other).
// Both conditions are registered state, so the acceptance does not wait on this cycle's
// grants. The new message starts up and sets up as above, beside the stream, and its
// elements follow the previous message's last one: its first element enters at
// S' = max(S + h, S'_prev + k_prev). So at most one message is set up ahead of the one
// being sent (a third request waits until the first is handed over and the second set
// up), and without contention the next setup hides behind the stream.
//
// The receive side passes the ejection port on: the header when a circuit to this tile
// is set up, then its elements. A circuit has no flow control, so the receiver takes an
// element every cycle one arrives.
module tsr_cube_ni #(
  /// Cube dimensions D, 1..16 (tsr_cube_node checks them): the interface finds the first
  /// output of a path.
  parameter int unsigned Dims = 3,
  /// Bits of one data element.
  parameter int unsigned DataWidth = 8,
  /// Outputs of the node, the D links and the ejection port; derived, do not override.
  localparam int unsigned Outs = Dims + 1,
  /// Width of a node id; derived, do not override.
  localparam int unsigned IdWidth = (Dims >= 1) ? Dims : 1,
  /// Bits of a cube_hdr_t, cube_setup_t and cube_stream_t; derived, do not override.
  localparam int unsigned HdrBits = tsr_pkg::CubeHdrBits,
  localparam int unsigned SetupBits = tsr_pkg::CubeSetupBits,
  localparam int unsigned StreamBits = tsr_pkg::CubeStreamBits,
  /// Message slots; derived, do not override.
  localparam int unsigned Slots = tsr_pkg::CubeSlots
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // This tile's id, the source of its headers.
  input  logic [15:0]                 id_i,
  // Start-up cycles of a message, xi >= 0, and how many of them run after the path is
  // set up, with the path held (0 <= xi_held <= xi). Both are taken with the request:
  // they may change between messages (a control message has a start-up of its own).
  input  logic [15:0]                 xi_i,
  input  logic [15:0]                 xi_held_i,
  // Pre-setup: accept the next request while a message is still handed over (above).
  input  logic                        presetup_i,
  // Message requests: destination, sequence number, k elements. Under pre-setup the
  // ready depends on the request's destination (its first output must be free).
  input  logic                        req_valid_i,
  output logic                        req_ready_o,
  input  tsr_pkg::cube_req_t          req_i,
  // The elements of the oldest message not yet handed over, in order, taken while
  // tx_ready_o.
  input  logic                        tx_valid_i,
  output logic                        tx_ready_o,
  input  logic [DataWidth-1:0]        tx_data_i,
  // To the node's local inputs, slot s's at [s*W +: W]: its cube_setup_t (W = SetupBits),
  // cube_stream_t (StreamBits) and element (DataWidth). Whole vectors: see tsr_cube_node.
  output logic [Slots*SetupBits-1:0]  inj_setup_o,
  output logic [Slots*StreamBits-1:0] inj_stream_o,
  output logic [Slots*DataWidth-1:0]  inj_data_o,
  // Per slot (bit s): the circuit from its local input reaches its destination (the
  // top's backward chain over the nodes' crossbars).
  input  logic [Slots-1:0]            path_i,
  // The node's outputs reserved since an earlier cycle (tsr_cube_node busy_o).
  input  logic [Outs-1:0]             out_busy_i,
  // From the node's ejection port.
  input  tsr_pkg::cube_setup_t        ej_setup_i,
  input  tsr_pkg::cube_stream_t       ej_stream_i,
  input  logic [DataWidth-1:0]        ej_data_i,
  // To the receiver: a circuit to this tile set up (rx_hdr_o is its header), and its
  // elements. rx_hdr_o stays valid while the elements come.
  output logic                        rx_start_o,
  output tsr_pkg::cube_hdr_t          rx_hdr_o,
  output logic                        rx_valid_o,
  output logic                        rx_last_o,
  output logic [DataWidth-1:0]        rx_data_o
);

  // take_q and send_q name one of two slots, the other being !take_q, !send_q.
  if (Slots != 2) begin : gen_slots_check
    $fatal(1, "tsr_cube_ni: the slot logic is written for CubeSlots = 2");
  end

  typedef enum logic [2:0] {
    NiIdle,     // no message; the slot may take a request
    NiStartup,  // counting the start-up before the header
    NiSetup,    // header sent, waiting for the path
    NiHold,     // path complete, counting the start-up held with it
    NiReady,    // path complete, start-up over: the message before is still handed over
    NiStream    // handing over the elements
  } ni_state_e;

  // Per slot.
  ni_state_e          st_q   [Slots];
  ni_state_e          st_d   [Slots];
  logic [HdrBits-1:0] hdr_q  [Slots];  // its message
  logic [15:0]        wait_q [Slots];  // start-up cycles (before the header, or held) to go
  logic [15:0]        held_q [Slots];  // its message's xi_held, taken with the request
  // Shared: one message streams at a time.
  logic [15:0] sent_q;  // elements of the streaming message handed over
  logic        take_q;  // the slot that takes the next request
  logic        send_q;  // the slot whose message streams next: the older one

  logic [IdWidth-1:0] diff;   // the dimensions the requested path crosses
  logic [IdWidth-1:0] low;    // the lowest of them, one-hot
  logic [Outs-1:0]    first;  // one-hot: the requested path's first output at this node
  logic [15:0]        lead;   // start-up cycles before the header, xi - xi_held
  logic               take;   // a request is accepted this cycle
  logic               idle      [Slots];
  logic               set_up    [Slots];  // its path completed in an earlier cycle
  logic [HdrBits-1:0] cur       [Slots];  // its message: the request itself when idle
  logic [15:0]        held      [Slots];  // xi_held: the input while it takes one
  logic               taking    [Slots];  // it takes the request this cycle
  logic               hdr_now   [Slots];  // its header goes to the node this cycle
  logic               last      [Slots];  // its element now would be the last
  logic               path_done [Slots];  // its path completes this cycle
  logic               ready     [Slots];  // path complete and start-up over
  logic               streaming [Slots];  // ready, and its turn: elements may go

  // Struct values are built and read through these scalars (Yosys 0.23 takes a struct
  // field only on a scalar; tsr_cube_node), the last three one slot at a time: those are
  // not traced, so that Verilator keeps them local.
  tsr_pkg::cube_hdr_t    req_hdr;     // the header of the request offered now
  /* verilator tracing_off */
  tsr_pkg::cube_hdr_t    cur_hdr;     // a slot's header
  tsr_pkg::cube_setup_t  setup_out;   // a slot's setup channel
  tsr_pkg::cube_stream_t stream_out;  // a slot's stream channel
  /* verilator tracing_on */

  // Three blocks, not one: the header leaves without regard to the path, and the path
  // (which the header's own grant may complete, for a message to this tile) steers the
  // stream; in one block Verilator would see a loop through the node.
  always_comb begin
    diff  = req_i.dst[IdWidth-1:0] ^ id_i[IdWidth-1:0];
    low   = diff & (~diff + IdWidth'(1));
    first = (diff == '0) ? Outs'(1) << Dims : Outs'(low);
    lead  = xi_i - xi_held_i;
    for (int unsigned s = 0; s < Slots; s++) begin
      idle[s]   = st_q[s] == NiIdle;
      set_up[s] = st_q[s] == NiHold || st_q[s] == NiReady || st_q[s] == NiStream;
    end
    req_ready_o = idle[take_q] &&
                  (idle[!take_q] ||
                   (presetup_i && set_up[!take_q] && (first & out_busy_i) == '0));
    take = req_valid_i && req_ready_o;
    req_hdr.src = id_i;
    req_hdr.dst = req_i.dst;
    req_hdr.seq = req_i.seq;
    req_hdr.len = req_i.len;
    cur_hdr     = '0;
    setup_out   = '0;
    for (int unsigned s = 0; s < Slots; s++) begin
      cur[s]    = idle[s] ? req_hdr : hdr_q[s];
      cur_hdr   = cur[s];
      held[s]   = idle[s] ? xi_held_i : held_q[s];
      taking[s] = take && take_q == 1'(s);
      // With no start-up before it the header leaves in the cycle the request is taken.
      hdr_now[s] = (taking[s] && lead == '0) || (st_q[s] == NiStartup && wait_q[s] == '0);
      last[s]    = sent_q + 16'd1 == cur_hdr.len;
      setup_out.valid = hdr_now[s];
      setup_out.hdr   = cur[s];
      inj_setup_o[s*SetupBits +: SetupBits] = setup_out;
    end
  end

  always_comb begin
    stream_out = '0;
    for (int unsigned s = 0; s < Slots; s++) begin
      path_done[s] = (hdr_now[s] || st_q[s] == NiSetup) && path_i[s];
      ready[s]     = st_q[s] == NiReady || st_q[s] == NiStream ||
                     (path_done[s] && held[s] == '0) || (st_q[s] == NiHold && wait_q[s] == '0);
      streaming[s] = ready[s] && send_q == 1'(s);
      stream_out.valid = streaming[s] && tx_valid_i;
      stream_out.last  = streaming[s] && tx_valid_i && last[s];
      inj_stream_o[s*StreamBits +: StreamBits] = stream_out;
    end
    tx_ready_o = streaming[send_q];
  end

  always_comb begin
    for (int unsigned s = 0; s < Slots; s++) begin
      st_d[s] = st_q[s];
      unique case (st_q[s])
        NiIdle:    if (taking[s]) st_d[s] = (lead == '0) ? NiSetup : NiStartup;
        NiStartup: if (wait_q[s] == '0) st_d[s] = NiSetup;
        default:   ;
      endcase
      if (path_done[s] && held[s] != '0) st_d[s] = NiHold;
      if (ready[s]) st_d[s] = NiReady;
      if (streaming[s]) st_d[s] = (tx_valid_i && last[s]) ? NiIdle : NiStream;
    end
  end

  // Both slots carry the sender's element; only the streaming one flags it valid. Kept
  // out of the path-dependent block: there, Verilator 5.006 orders the node's data path
  // differently for the input and the clock regions and copies the whole node's logic
  // into both (twice the C++, half the speed).
  assign inj_data_o = {Slots{tx_data_i}};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned s = 0; s < Slots; s++) begin
        st_q[s]   <= NiIdle;
        hdr_q[s]  <= '0;
        wait_q[s] <= '0;
        held_q[s] <= '0;
      end
      sent_q <= '0;
      take_q <= 1'b0;
      send_q <= 1'b0;
    end else begin
      for (int unsigned s = 0; s < Slots; s++) begin
        st_q[s] <= st_d[s];
        if (taking[s]) begin
          hdr_q[s]  <= cur[s];
          held_q[s] <= xi_held_i;
          wait_q[s] <= lead - 16'd1;
        end else if ((st_q[s] == NiStartup || st_q[s] == NiHold) && wait_q[s] != '0) begin
          wait_q[s] <= wait_q[s] - 16'd1;
        end
        // The held start-up begins in the cycle the path completes (overriding the
        // request's count when a header without start-up finds its path at once).
        if (path_done[s] && held[s] != '0) wait_q[s] <= held[s] - 16'd1;
      end
      if (tx_ready_o && tx_valid_i) sent_q <= last[send_q] ? '0 : sent_q + 16'd1;
      if (take) take_q <= !take_q;
      if (tx_ready_o && tx_valid_i && last[send_q]) send_q <= !send_q;
    end
  end

  // ---- receive side -------------------------------------------------------------------
  tsr_pkg::cube_hdr_t rx_hdr_q;

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
      LengthPositive_A: assert (!take || req_i.len != '0)
        else $error("tsr_cube_ni %0d: a message of zero elements", id_i);
      RequestHeld_A: assert (!req_wait_q || req_valid_i)
        else $error("tsr_cube_ni %0d: request withdrawn before it was taken", id_i);
      HeldWithinXi_A: assert (!take || xi_held_i <= xi_i)
        else $error("tsr_cube_ni %0d: xi_held %0d exceeds xi %0d", id_i, xi_held_i, xi_i);
      // At most one message is set up ahead: never two slots before their path.
      OneAhead_A: assert (set_up[0] || idle[0] || set_up[1] || idle[1])
        else $error("tsr_cube_ni %0d: two messages setting up at once", id_i);
      // The slots hand over in the order they took: the older one (send_q) is free only
      // when both are, and the newer one never streams.
      SlotOrder_A: assert (!idle[send_q] || idle[!send_q])
        else $error("tsr_cube_ni %0d: the newer message outlives the older", id_i);
      StreamOrder_A: assert (st_q[!send_q] != NiStream)
        else $error("tsr_cube_ni %0d: the newer message streams first", id_i);
      for (int unsigned s = 0; s < Slots; s++) begin
        // A circuit stays up until its tail has left; losing it mid-message is a node bug.
        PathHeld_A: assert (!set_up[s] || path_i[s])
          else $error("tsr_cube_ni %0d: slot %0d lost its path", id_i, s);
      end
    end
  end
`endif

endmodule
