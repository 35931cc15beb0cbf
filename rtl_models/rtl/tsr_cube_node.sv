// One node of a circuit-switched D-cube (004_6a57f137dad1d0a3.txt §2, Boppana and
// Raghavendra; the iPSC-860 of 001_7cf2891e56d981e0.txt §2, Bokhari; the TLM circuit
// engine of docs/tlm.md): D link inputs and outputs, one per dimension, plus the local
// injection input and ejection output.
//
// Setup. A header arriving on an input (from a neighbour, or from the local network
// interface) asks for its e-cube output: the lowest dimension in which dst differs from
// this node, or the ejection port when dst is this node. A free output is granted in
// that same cycle; a busy one makes the header wait on its input, holding the links
// behind it (hold-and-wait), and it is granted in the first cycle the output is free.
// Several headers asking for one free output in one cycle: arb_i picks the lowest
// source (CubeArbLowestId) or the first source at or after the output's pointer,
// cyclically, the pointer then moving past the winner (CubeArbRoundRobin).
//
// Timing. A cube output granted in cycle g presents the header to the neighbour in
// cycle g + tau, where it may be granted again in that cycle; so a path of i hops whose
// first output is granted at g1 reserves the destination's ejection port at
// S = g1 + i tau. The circuit is then complete (the top turns thru_o into the backward
// "path complete" signal the source sees in that same cycle S). Elements cross each
// cube output through one register and the ejection port without one, so an element
// entering at the source in cycle c leaves the destination in cycle c + i.
//
// Teardown. The element flagged last frees, at every node it passes, the output it
// passes through: the output is busy up to and including the cycle the tail crosses
// the node, and free (grantable) from the next cycle.
module tsr_cube_node
  import tsr_pkg::*;
#(
  /// Cube dimensions D, 1..16 (2^D nodes).
  parameter int unsigned Dims = 3,
  /// Bits of one data element.
  parameter int unsigned DataWidth = 8,
  /// Ports: the D links and the local port, whose index is D; derived, do not override.
  localparam int unsigned Ports = Dims + 1,
  /// Width of a port index; derived, do not override.
  localparam int unsigned PortWidth = idx_width(Ports),
  /// Width of a node id; derived, do not override.
  localparam int unsigned IdWidth = (Dims >= 1) ? Dims : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // This node's id (one module serves every node of the cube).
  input  logic [IdWidth-1:0]   id_i,
  // Cycles a header takes over one link, at least 1; an input so one model serves
  // every timing a testbench checks.
  input  logic [7:0]           tau_i,
  // CubeArbLowestId or CubeArbRoundRobin.
  input  logic                 arb_i,
  // Link inputs, input d from the neighbour across dimension d.
  input  cube_setup_t          setup_i    [Dims],
  input  cube_stream_t         stream_i   [Dims],
  input  logic [DataWidth-1:0] data_i     [Dims],
  // Link outputs, output d to the neighbour across dimension d.
  output cube_setup_t          setup_o    [Dims],
  output cube_stream_t         stream_o   [Dims],
  output logic [DataWidth-1:0] data_o     [Dims],
  // Local injection (input port D) from the network interface.
  input  cube_setup_t          inj_setup_i,
  input  cube_stream_t         inj_stream_i,
  input  logic [DataWidth-1:0] inj_data_i,
  // Local ejection (output port D): the header in the cycle the port is granted, then
  // the elements, each in the cycle it arrives.
  output cube_setup_t          ej_setup_o,
  output cube_stream_t         ej_stream_o,
  output logic [DataWidth-1:0] ej_data_o,
  // thru_o[p][o]: input p is connected to output o. A cube output counts from the cycle
  // after its grant, the ejection port from its grant, so the chain of thru_o along a
  // path is complete exactly in the cycle the destination grants its ejection port.
  output logic [Ports-1:0]     thru_o     [Ports],
  // Observability, per output o: granted this cycle, reserved since an earlier cycle,
  // the tail crossing towards it this cycle (free from the next), and the header of the
  // circuit that holds it or is granted it now.
  output logic [Ports-1:0]     grant_o,
  output logic [Ports-1:0]     busy_o,
  output logic [Ports-1:0]     tail_o,
  output cube_hdr_t            hold_hdr_o [Ports],
  // Observability, per input p: a header asking and not granted this cycle, the output
  // it asks for and the header.
  output logic [Ports-1:0]     wait_o,
  output logic [PortWidth-1:0] want_o     [Ports],
  output cube_hdr_t            want_hdr_o [Ports]
);

  if (Dims < 1 || Dims > 16) begin : gen_dims_check
    $fatal(1, "tsr_cube_node: Dims must be 1..16");
  end
  if (DataWidth < 1) begin : gen_width_check
    $fatal(1, "tsr_cube_node: DataWidth must be at least 1");
  end

  localparam int unsigned Local = Dims;  // the local port's index, in and out

  // ---- setup: the header each input presents this cycle, and where it goes ------------
  cube_setup_t          in_setup [Ports];
  logic                 req      [Ports];  // a header asks for an output this cycle
  cube_hdr_t            req_hdr  [Ports];
  logic [PortWidth-1:0] req_out  [Ports];

  // Per input: a header that arrived earlier and is still waiting, and the circuit it
  // joined once granted (the output it goes to).
  logic                 wait_q [Ports];
  cube_hdr_t            hdr_q  [Ports];
  logic                 conn_q [Ports];
  logic [PortWidth-1:0] sel_q  [Ports];

  // Per output: reserved, by which input, for which header; the round-robin pointer.
  logic                 busy_q  [Ports];
  logic [PortWidth-1:0] owner_q [Ports];
  cube_hdr_t            hold_q  [Ports];
  logic [IdWidth-1:0]   rr_q    [Ports];

  // Per cube output: the header on its way to the neighbour, cycles still to go.
  logic                 fly_q  [Dims];
  logic [7:0]           hcnt_q [Dims];

  // E-cube: the lowest dimension still to correct, or the local port at the destination.
  function automatic logic [PortWidth-1:0] ecube(logic [IdWidth-1:0] dst);
    logic [IdWidth-1:0] diff;
    logic [PortWidth-1:0] port;
    diff = dst ^ id_i;
    port = PortWidth'(Local);
    for (int d = Dims - 1; d >= 0; d--) begin
      if (diff[d]) port = PortWidth'(d);
    end
    return port;
  endfunction

  always_comb begin
    for (int p = 0; p < Dims; p++) in_setup[p] = setup_i[p];
    in_setup[Local] = inj_setup_i;
    for (int p = 0; p < Ports; p++) begin
      req[p]     = in_setup[p].valid || wait_q[p];
      req_hdr[p] = in_setup[p].valid ? in_setup[p].hdr : hdr_q[p];
      req_out[p] = ecube(req_hdr[p].dst[IdWidth-1:0]);
    end
  end

  // ---- arbitration: per free output, the best header asking for it ---------------------
  logic                 grant    [Ports];
  logic [PortWidth-1:0] grant_in [Ports];
  logic                 granted  [Ports];  // per input: its header won this cycle

  always_comb begin
    for (int o = 0; o < Ports; o++) begin
      logic [IdWidth-1:0] best, key;
      grant[o]    = 1'b0;
      grant_in[o] = '0;
      best        = '0;
      key         = '0;
      if (!busy_q[o]) begin
        for (int p = 0; p < Ports; p++) begin
          if (req[p] && int'(req_out[p]) == o) begin
            // Round-robin ranks sources by their distance past the pointer, modulo 2^D.
            key = (arb_i == CubeArbRoundRobin) ? req_hdr[p].src[IdWidth-1:0] - rr_q[o]
                                               : req_hdr[p].src[IdWidth-1:0];
            // Strictly better only, so equal keys go to the lowest input.
            if (!grant[o] || key < best) begin
              grant[o]    = 1'b1;
              grant_in[o] = PortWidth'(p);
              best        = key;
            end
          end
        end
      end
    end
    for (int p = 0; p < Ports; p++) begin
      granted[p] = req[p] && grant[req_out[p]] && int'(grant_in[req_out[p]]) == p;
    end
  end

  // The crossbar as the stream sees it this cycle: a grant joins at once. Only the
  // ejection port can carry an element in its grant cycle, for a message from this tile
  // to itself (a path of no hops, whose stream starts at S).
  logic                 conn_now  [Ports];
  logic [PortWidth-1:0] sel_now   [Ports];
  logic                 busy_now  [Ports];
  logic [PortWidth-1:0] owner_now [Ports];

  always_comb begin
    for (int p = 0; p < Ports; p++) begin
      conn_now[p] = conn_q[p] || granted[p];
      sel_now[p]  = conn_q[p] ? sel_q[p] : req_out[p];
      thru_o[p]   = '0;
      if (conn_q[p]) thru_o[p][sel_q[p]] = 1'b1;
      if (granted[p] && int'(req_out[p]) == Local) thru_o[p][Local] = 1'b1;
      wait_o[p]     = req[p] && !granted[p];
      want_o[p]     = req_out[p];
      want_hdr_o[p] = req_hdr[p];
    end
    for (int o = 0; o < Ports; o++) begin
      busy_now[o]  = busy_q[o] || grant[o];
      owner_now[o] = busy_q[o] ? owner_q[o] : grant_in[o];
      grant_o[o]   = grant[o];
      busy_o[o]    = busy_q[o];
      hold_hdr_o[o] = busy_q[o] ? hold_q[o] : req_hdr[grant_in[o]];
    end
  end

  // ---- stream: elements through the crossbar ------------------------------------------
  cube_stream_t         in_stream [Ports];
  logic [DataWidth-1:0] in_data   [Ports];
  logic                 tail_in   [Ports];  // per input: the tail crosses this cycle
  logic                 tail_out  [Ports];  // per output: likewise

  always_comb begin
    for (int p = 0; p < Dims; p++) begin
      in_stream[p] = stream_i[p];
      in_data[p]   = data_i[p];
    end
    in_stream[Local] = inj_stream_i;
    in_data[Local]   = inj_data_i;
    for (int p = 0; p < Ports; p++) begin
      tail_in[p] = conn_now[p] && in_stream[p].valid && in_stream[p].last;
    end
    for (int o = 0; o < Ports; o++) begin
      tail_out[o] = busy_now[o] && tail_in[owner_now[o]] && int'(sel_now[owner_now[o]]) == o;
      tail_o[o]   = tail_out[o];
    end
    ej_setup_o.valid        = grant[Local];
    ej_setup_o.hdr          = req_hdr[grant_in[Local]];
    ej_stream_o             = '0;
    if (busy_now[Local]) ej_stream_o = in_stream[owner_now[Local]];
    ej_data_o               = in_data[owner_now[Local]];
  end

  // Cube outputs: the header after tau cycles, the elements one register behind.
  cube_stream_t         str_q  [Dims];
  logic [DataWidth-1:0] data_q [Dims];

  always_comb begin
    for (int o = 0; o < Dims; o++) begin
      setup_o[o].valid = fly_q[o] && hcnt_q[o] == '0;
      setup_o[o].hdr   = hold_q[o];
      stream_o[o]      = str_q[o];
      data_o[o]        = data_q[o];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int p = 0; p < Ports; p++) begin
        wait_q[p]  <= 1'b0;
        hdr_q[p]   <= '0;
        conn_q[p]  <= 1'b0;
        sel_q[p]   <= '0;
        busy_q[p]  <= 1'b0;
        owner_q[p] <= '0;
        hold_q[p]  <= '0;
        rr_q[p]    <= '0;
      end
      for (int o = 0; o < Dims; o++) begin
        fly_q[o]  <= 1'b0;
        hcnt_q[o] <= '0;
        str_q[o]  <= '0;
        data_q[o] <= '0;
      end
    end else begin
      for (int p = 0; p < Ports; p++) begin
        if (in_setup[p].valid) hdr_q[p] <= in_setup[p].hdr;
        wait_q[p] <= req[p] && !granted[p];
        conn_q[p] <= conn_now[p] && !tail_in[p];
        if (granted[p]) sel_q[p] <= req_out[p];
      end
      for (int o = 0; o < Ports; o++) begin
        busy_q[o] <= busy_now[o] && !tail_out[o];
        if (grant[o]) begin
          owner_q[o] <= grant_in[o];
          hold_q[o]  <= req_hdr[grant_in[o]];
          if (arb_i == CubeArbRoundRobin) begin
            rr_q[o] <= req_hdr[grant_in[o]].src[IdWidth-1:0] + 1'b1;
          end
        end
      end
      for (int o = 0; o < Dims; o++) begin
        if (grant[o]) begin
          fly_q[o]  <= 1'b1;
          hcnt_q[o] <= tau_i - 8'd1;
        end else if (fly_q[o]) begin
          if (hcnt_q[o] == '0) fly_q[o] <= 1'b0;
          else hcnt_q[o] <= hcnt_q[o] - 8'd1;
        end
        // Only the circuit's own input reaches the output; an unreserved one is idle.
        str_q[o]  <= '0;
        if (busy_now[o] && int'(sel_now[owner_now[o]]) == o) str_q[o] <= in_stream[owner_now[o]];
        data_q[o] <= in_data[owner_now[o]];
      end
    end
  end

`ifndef SYNTHESIS
  TauPositive_A: assert property (@(posedge clk_i) disable iff (!rst_ni) tau_i != '0)
    else $error("tsr_cube_node: tau must be at least 1");
  // Per input: an element outside a circuit; a tail flag without an element; a header
  // onto an input that already holds one or carries a circuit (the neighbour's output
  // is reserved until the tail has crossed both nodes, so it cannot happen); a header
  // that turns back to a dimension at or below the one it came in on (e-cube never
  // does; the top's path-complete chain relies on it); a destination outside the cube.
  // Computed into vectors first: an assertion that indexes a struct field of an unpacked
  // array element makes Verilator 5.006 fail internally.
  logic [Ports-1:0] stray, lone_last, hdr_clash, bad_order, bad_dst;
  always_comb begin
    for (int p = 0; p < Ports; p++) begin
      stray[p]     = in_stream[p].valid && !conn_now[p];
      lone_last[p] = in_stream[p].last && !in_stream[p].valid;
      hdr_clash[p] = in_setup[p].valid && (wait_q[p] || conn_q[p]);
      bad_order[p] = p < Dims && req[p] && int'(req_out[p]) <= p;
      bad_dst[p]   = req[p] && (32'(req_hdr[p].dst) >> Dims) != 0;
    end
  end
  StreamOnCircuit_A: assert property (@(posedge clk_i) disable iff (!rst_ni) stray == '0)
    else $error("tsr_cube_node %0d: element on unreserved inputs %b", id_i, stray);
  LastWithElement_A: assert property (@(posedge clk_i) disable iff (!rst_ni) lone_last == '0)
    else $error("tsr_cube_node %0d: last flag without an element on inputs %b", id_i, lone_last);
  HeaderOnFreeInput_A: assert property (@(posedge clk_i) disable iff (!rst_ni) hdr_clash == '0)
    else $error("tsr_cube_node %0d: header onto a busy input, inputs %b", id_i, hdr_clash);
  EcubeOrder_A: assert property (@(posedge clk_i) disable iff (!rst_ni) bad_order == '0)
    else $error("tsr_cube_node %0d: header routed back to a lower dimension, inputs %b", id_i,
                bad_order);
  DstInCube_A: assert property (@(posedge clk_i) disable iff (!rst_ni) bad_dst == '0)
    else $error("tsr_cube_node %0d: destination outside the cube, inputs %b", id_i, bad_dst);
`endif

endmodule
