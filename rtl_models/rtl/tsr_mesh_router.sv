// One router of a wormhole-switched 2D mesh with XY routing (000_59d2238f27277512.txt,
// the machine of Thakur, Choudhary and Fox; the TLM wormhole engine of
// docs/wormhole.md). Five input ports (E, W, S, N by the direction their flits travel,
// and local), each with a FIFO of BufferDepth flits and credit-based flow control, and
// five output ports with round-robin switch allocation.
//
// Timing, in the rules of docs/wormhole.md (V = 1, g = 1):
// - A flit that crosses a channel in cycle c is in the next FIFO from c + 1 and may cross
//   the next channel at c + 1 (one FIFO stage per hop; the link is a wire).
// - A head flit that arrived at c + 1 may be granted its output at c + 1 + RouterDelay.
//   Route computation starts on arrival, so it overlaps a wait behind earlier packets.
// - A granted packet holds its output from its head's crossing to its tail's; another
//   head may take it the cycle after the tail crossed. Body flits pay no router delay.
// - A flit crosses a link only with a credit. Credits return one cycle after the
//   downstream FIFO frees the slot. This is the one difference from the engine's rule 5,
//   which lets a flit use a slot freed in the same cycle: it shows only when a FIFO
//   fills (a blocked worm, or BufferDepth < RouterDelay + 2 on a free path).
// So one packet of F flits over h hops, injected at t, leaves the ejection port with its
// tail at t + (h + 1)(RouterDelay + 1) + F - 1 when nothing blocks it.
module tsr_mesh_router
  import tsr_pkg::*;
#(
  /// Mesh rows.
  parameter int unsigned Rows = 4,
  /// Mesh columns.
  parameter int unsigned Cols = 4,
  /// Payload bits per flit, a power of two from 8 to 1024.
  parameter int unsigned FlitWidth = 32,
  /// Flits per input FIFO, at least 1.
  parameter int unsigned BufferDepth = 4,
  /// Cycles a head flit spends in a router before it may leave (router_delay), 0..255.
  parameter int unsigned RouterDelay = 1,
  /// Bits of a flit: the control bits of mesh_ctl_t above the payload; derived.
  localparam int unsigned FlitBits = MeshCtlBits + FlitWidth
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // This router's place in the mesh.
  input  logic [15:0]          row_i,
  input  logic [15:0]          col_i,
  // Inputs: a flit per port per cycle, sent only with a credit.
  input  logic [MeshPorts-1:0] in_valid_i,
  input  logic [FlitBits-1:0]  in_flit_i   [MeshPorts],
  // A slot of input FIFO p freed this cycle: one credit back to its sender.
  output logic [MeshPorts-1:0] credit_o,
  // Outputs: a flit per port per cycle.
  output logic [MeshPorts-1:0] out_valid_o,
  output logic [FlitBits-1:0]  out_flit_o  [MeshPorts],
  // Credits from the neighbours' input FIFOs, per output link.
  input  logic [MeshLinks-1:0] credit_i,
  // The ejection port takes a flit this cycle (valid/ready, no credits).
  input  logic                 eject_ready_i,
  // Observability: input p holds a flit that did not move this cycle, and that flit's
  // control bits. A testbench's deadlock report names what every stuck input waits for.
  output logic [MeshPorts-1:0] stall_o,
  output mesh_ctl_t            front_o     [MeshPorts]
);

  if (FlitWidth < 8 || FlitWidth > 1024 || (FlitWidth & (FlitWidth - 1)) != 0)
  begin : gen_width_check
    $fatal(1, "tsr_mesh_router: FlitWidth must be a power of two from 8 to 1024");
  end
  if (BufferDepth < 1 || BufferDepth > 1024) begin : gen_depth_check
    $fatal(1, "tsr_mesh_router: BufferDepth must be 1..1024");
  end
  if (RouterDelay > 255) begin : gen_delay_check
    $fatal(1, "tsr_mesh_router: RouterDelay must be 0..255");
  end
  if (Rows < 1 || Cols < 1 || Rows * Cols > 65536) begin : gen_shape_check
    $fatal(1, "tsr_mesh_router: needs 1 <= Rows, Cols and Rows * Cols <= 65536");
  end

  localparam int unsigned PtrWidth = idx_width(BufferDepth);
  localparam int unsigned CntWidth = cnt_width(BufferDepth);
  localparam int unsigned AgeWidth = cnt_width(RouterDelay);
  localparam int unsigned PortWidth = idx_width(MeshPorts);

  // ---- input FIFOs: flits, and per slot the cycles since the flit arrived ------------
  logic [FlitBits-1:0] mem_q   [MeshPorts][BufferDepth];
  logic [AgeWidth-1:0] age_q   [MeshPorts][BufferDepth];
  logic [PtrWidth-1:0] rd_q    [MeshPorts];
  logic [PtrWidth-1:0] wr_q    [MeshPorts];
  logic [CntWidth-1:0] count_q [MeshPorts];
  // Input p's packet holds output port_q[p] (from its head's grant to its tail).
  logic                bound_q [MeshPorts];
  logic [PortWidth-1:0] port_q [MeshPorts];

  // ---- outputs: held by one input, round-robin pointer, credits ----------------------
  logic                 held_q  [MeshPorts];
  logic [PortWidth-1:0] owner_q [MeshPorts];
  logic [PortWidth-1:0] rr_q    [MeshPorts];
  logic [CntWidth-1:0]  room_q  [MeshLinks];

  // XY: columns first, then rows, then the local port.
  function automatic logic [PortWidth-1:0] route(logic [15:0] dst);
    int unsigned r, c;
    r = int'(dst) / Cols;
    c = int'(dst) % Cols;
    if (c > int'(col_i)) return PortWidth'(MeshEast);
    if (c < int'(col_i)) return PortWidth'(MeshWest);
    if (r > int'(row_i)) return PortWidth'(MeshSouth);
    if (r < int'(row_i)) return PortWidth'(MeshNorth);
    return PortWidth'(MeshLocal);
  endfunction

  function automatic logic [PtrWidth-1:0] next_ptr(logic [PtrWidth-1:0] p);
    return (32'(p) + 1 == BufferDepth) ? '0 : p + 1'b1;
  endfunction

  mesh_ctl_t            front    [MeshPorts];
  logic                 nonempty [MeshPorts];
  logic                 eligible [MeshPorts];  // a head whose router delay has passed
  logic [PortWidth-1:0] want     [MeshPorts];  // the output that head asks for
  logic                 can_send [MeshPorts];  // per output: a slot downstream
  logic                 grant    [MeshPorts];  // per output: a head takes it this cycle
  logic [PortWidth-1:0] grant_in [MeshPorts];
  logic                 send     [MeshPorts];  // per output: a flit crosses this cycle
  logic [PortWidth-1:0] send_in  [MeshPorts];
  logic                 send_tail[MeshPorts];  // per output: that flit is a tail
  logic                 pop      [MeshPorts];  // per input: its front flit left

  always_comb begin
    for (int p = 0; p < MeshPorts; p++) begin
      nonempty[p] = count_q[p] != '0;
      front[p]    = mesh_ctl_t'(mem_q[p][rd_q[p]][FlitBits-1:FlitWidth]);
      eligible[p] = nonempty[p] && !bound_q[p] && front[p].head &&
                    32'(age_q[p][rd_q[p]]) >= RouterDelay;
      want[p]     = route(front[p].dst);
    end
    for (int o = 0; o < MeshPorts; o++) begin
      can_send[o] = (o == MeshLocal) ? eject_ready_i : room_q[o % MeshLinks] != '0;
      // Round robin: scan the inputs from the pointer upward; the first eligible head
      // that asks for this output wins.
      grant[o]    = 1'b0;
      grant_in[o] = '0;
      if (!held_q[o] && can_send[o]) begin
        for (int k = MeshPorts - 1; k >= 0; k--) begin
          if (eligible[(int'(rr_q[o]) + k) % MeshPorts] &&
              int'(want[(int'(rr_q[o]) + k) % MeshPorts]) == o) begin
            grant[o]    = 1'b1;
            grant_in[o] = PortWidth'((int'(rr_q[o]) + k) % MeshPorts);
          end
        end
      end
      // A held output moves its packet's next flit when the flit is there and may go.
      send[o]    = grant[o] || (held_q[o] && can_send[o] && nonempty[owner_q[o]]);
      send_in[o] = held_q[o] ? owner_q[o] : grant_in[o];
      out_valid_o[o] = send[o];
      out_flit_o[o]  = mem_q[send_in[o]][rd_q[send_in[o]]];
      send_tail[o]   = out_flit_o[o][FlitBits-2];  // mesh_ctl_t's tail, under head
    end
    for (int p = 0; p < MeshPorts; p++) begin
      pop[p] = 1'b0;
      for (int o = 0; o < MeshPorts; o++) begin
        if (send[o] && int'(send_in[o]) == p) pop[p] = 1'b1;
      end
      credit_o[p] = pop[p];
      stall_o[p]  = nonempty[p] && !pop[p];
      front_o[p]  = front[p];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int p = 0; p < MeshPorts; p++) begin
        rd_q[p]    <= '0;
        wr_q[p]    <= '0;
        count_q[p] <= '0;
        bound_q[p] <= 1'b0;
        port_q[p]  <= '0;
        held_q[p]  <= 1'b0;
        owner_q[p] <= '0;
        rr_q[p]    <= '0;
        for (int s = 0; s < BufferDepth; s++) age_q[p][s] <= '0;
      end
      for (int l = 0; l < MeshLinks; l++) room_q[l] <= CntWidth'(BufferDepth);
    end else begin
      for (int p = 0; p < MeshPorts; p++) begin
        // Every stored flit ages, up to RouterDelay; an arriving one starts at 0.
        for (int s = 0; s < BufferDepth; s++) begin
          if (32'(age_q[p][s]) < RouterDelay) age_q[p][s] <= age_q[p][s] + 1'b1;
        end
        if (in_valid_i[p]) begin
          mem_q[p][wr_q[p]] <= in_flit_i[p];
          age_q[p][wr_q[p]] <= '0;
          wr_q[p]           <= next_ptr(wr_q[p]);
        end
        if (pop[p]) rd_q[p] <= next_ptr(rd_q[p]);
        count_q[p] <= count_q[p] + CntWidth'(in_valid_i[p]) - CntWidth'(pop[p]);
      end
      for (int o = 0; o < MeshPorts; o++) begin
        if (send[o]) begin
          // The head takes the output; the tail (maybe the same flit) gives it back.
          held_q[o]            <= !send_tail[o];
          owner_q[o]           <= send_in[o];
          bound_q[send_in[o]]  <= !send_tail[o];
          port_q[send_in[o]]   <= PortWidth'(o);
        end
        if (grant[o]) rr_q[o] <= PortWidth'((int'(grant_in[o]) + 1) % MeshPorts);
      end
      for (int l = 0; l < MeshLinks; l++) begin
        room_q[l] <= room_q[l] + CntWidth'(credit_i[l]) - CntWidth'(send[l]);
      end
    end
  end

`ifndef SYNTHESIS
  // Per input: a flit pushed into a full FIFO (the sender ignored its credits), or a
  // body flit at the front of an input that holds no output (a packet without a head).
  logic [MeshPorts-1:0] overflow, headless, off_mesh, port_mismatch;
  always_comb begin
    for (int p = 0; p < MeshPorts; p++) begin
      overflow[p] = in_valid_i[p] && 32'(count_q[p]) == BufferDepth && !pop[p];
      headless[p] = nonempty[p] && !bound_q[p] && !front[p].head;
      // XY never turns a packet towards a missing neighbour or outside the mesh.
      off_mesh[p] = eligible[p] && int'(front[p].dst) >= Rows * Cols;
      port_mismatch[p] = bound_q[p] && !(held_q[port_q[p]] && int'(owner_q[port_q[p]]) == p);
    end
  end
  NoOverflow_A: assert property (@(posedge clk_i) disable iff (!rst_ni) overflow == '0)
    else $error("tsr_mesh_router: flit pushed into a full FIFO on inputs %b", overflow);
  HeadFirst_A: assert property (@(posedge clk_i) disable iff (!rst_ni) headless == '0)
    else $error("tsr_mesh_router: body flit without a head on inputs %b", headless);
  DstInMesh_A: assert property (@(posedge clk_i) disable iff (!rst_ni) off_mesh == '0)
    else $error("tsr_mesh_router: destination outside the mesh on inputs %b", off_mesh);
  BoundHoldsPort_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      port_mismatch == '0)
    else $error("tsr_mesh_router: input bound to an output it does not hold: %b",
                port_mismatch);
  logic [MeshLinks-1:0] room_over;
  always_comb begin
    for (int l = 0; l < MeshLinks; l++) room_over[l] = 32'(room_q[l]) > BufferDepth;
  end
  CreditsBounded_A: assert property (@(posedge clk_i) disable iff (!rst_ni) room_over == '0)
    else $error("tsr_mesh_router: more credits than FIFO slots on outputs %b", room_over);
`endif

endmodule
