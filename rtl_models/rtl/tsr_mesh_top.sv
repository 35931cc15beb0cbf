// A Rows x Cols wormhole mesh: a tsr_mesh_router and a tsr_mesh_ni per tile. Output p
// of a router feeds input p of its neighbour in direction p (inputs are named by the
// direction their flits travel), and the neighbour's credits for input p come back
// beside it; links off the mesh edge are tied off, and no minimal route asks for them.
//
// Built with Wrap, the top runs a torus as well (wrap_i): the routers of a rows_i x cols_i
// torus in the top-left corner are joined by wraparound links besides, the last column's
// E output to the first column's E input and the first column's W output to the last
// column's W input (rows alike, S and N), with their credits; the links from the torus's
// last column and row into the tiles beyond it are cut, so the rest stays idle. The
// routers route in dimension order the shorter way round and keep the dateline VC
// classes (tsr_mesh_route).
//
// The timing settings are inputs, so one Verilated model serves many runs: the router
// delay, pipeline depth and credit delay, the routing function, the NIs' start-up
// (alpha) and injection pace (inject_gap), the VCs in use (1..VCs) and the usable slots
// per input VC FIFO (1..BufferDepth, the credits every sender starts with). They are
// loaded at the clock edges while rst_ni is low and at the first edge after it (hold
// them from reset on), so the routers' logic depends on registers only. A smaller mesh
// runs in the top-left corner: every routing is minimal and keeps its packets inside,
// the rest stays idle.
//
// The tile side of every NI is brought out field by field (row and column of a
// coordinate, head, tail, VC, data), so a testbench or bridge never mirrors the flit's
// bit layout.
module tsr_mesh_top
  import tsr_pkg::*;
#(
  /// Mesh rows, 1..MeshMaxSide.
  parameter int unsigned Rows = 4,
  /// Mesh columns, 1..MeshMaxSide.
  parameter int unsigned Cols = 4,
  /// Payload bits per flit, a power of two from 8 to 1024.
  parameter int unsigned FlitWidth = 32,
  /// Virtual channels per physical channel, 1..MeshMaxVcs.
  parameter int unsigned VCs = 4,
  /// Flit slots per input VC FIFO, 1..1024.
  parameter int unsigned BufferDepth = 4,
  /// The deepest pipeline_i and the longest credit_delay_i built for, 1..16 each
  /// (tsr_mesh_router); 1 leaves the pipeline delay or the credit delay line out.
  parameter int unsigned MaxPipeline = 16,
  parameter int unsigned MaxCreditDelay = 16,
  /// 1: build the wraparound links of a torus (wrap_i); 0 leaves them and wrap_i out.
  parameter int unsigned Wrap = 1,
  /// Tiles; derived, do not override.
  localparam int unsigned Tiles = Rows * Cols,
  /// Input VCs of a router; derived, do not override.
  localparam int unsigned InVcs = MeshPorts * VCs,
  /// Width of an input VC index (probe_vc_i); derived, do not override.
  localparam int unsigned InIdxWidth = idx_width(InVcs)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Run-time settings, every router and NI, loaded at the clock edges during reset and
  // at the first edge after it: hold them from reset on.
  input  logic [15:0]          alpha_i,         // start-up cycles per message
  input  logic [15:0]          inject_gap_i,    // cycles per injected flit, at least 1
  input  mesh_delay_t          router_delay_i,  // r, 0..255 (r + pipeline - 1 at most 255)
  input  logic [4:0]           pipeline_i,      // router pipeline depth, 1..MaxPipeline
  input  logic [4:0]           credit_delay_i,  // a freed slot serves, 1..MaxCreditDelay
  input  logic [2:0]           vcs_i,           // VCs in use, 1..VCs
  input  mesh_routing_t        routing_i,       // tsr_pkg MeshRoute*
  input  logic                 wrap_i,          // a torus (Wrap only; else a mesh)
  input  logic [6:0]           rows_i,          // ... of rows_i x cols_i, 1..Rows, 1..Cols
  input  logic [6:0]           cols_i,
  input  logic [15:0]          depth_i,         // usable slots per VC FIFO, 1..BufferDepth
  // Per tile: the NI's message port (destination row and column, flits, flits per
  // packet) and its payload words.
  input  logic [Tiles-1:0]     msg_valid_i,
  output logic [Tiles-1:0]     msg_ready_o,
  input  logic [5:0]           msg_dst_row_i      [Tiles],
  input  logic [5:0]           msg_dst_col_i      [Tiles],
  input  logic [15:0]          msg_flits_i        [Tiles],
  input  logic [15:0]          msg_packet_flits_i [Tiles],
  input  logic [Tiles-1:0]     data_valid_i,
  input  logic [FlitWidth-1:0] data_i             [Tiles],
  output logic [Tiles-1:0]     data_ready_o,
  // Per tile: the flit ejected this cycle, and the tile's readiness to take one in the
  // next cycle.
  output logic [Tiles-1:0]     rx_valid_o,
  output logic [Tiles-1:0]     rx_head_o,
  output logic [Tiles-1:0]     rx_tail_o,
  output mesh_vc_t             rx_vc_o            [Tiles],
  output logic [5:0]           rx_src_row_o       [Tiles],
  output logic [5:0]           rx_src_col_o       [Tiles],
  output logic [5:0]           rx_dst_row_o       [Tiles],
  output logic [5:0]           rx_dst_col_o       [Tiles],
  output logic [FlitWidth-1:0] rx_data_o          [Tiles],
  input  logic [Tiles-1:0]     rx_ready_i,
  // Observability per router: the flits that crossed each output this cycle.
  output logic [MeshPorts-1:0] link_valid_o       [Tiles],
  output logic [MeshPorts-1:0] link_head_o        [Tiles],
  // ... and each such flit's tail bit, VC, source and destination, for the timeline's
  // link tracks (which worm held which VC of a link, from its head to its tail).
  output logic [MeshPorts-1:0] link_tail_o        [Tiles],
  output mesh_vc_t             link_vc_o          [Tiles][MeshPorts],
  output logic [5:0]           link_src_row_o     [Tiles][MeshPorts],
  output logic [5:0]           link_src_col_o     [Tiles][MeshPorts],
  output logic [5:0]           link_dst_row_o     [Tiles][MeshPorts],
  output logic [5:0]           link_dst_col_o     [Tiles][MeshPorts],
  // Per router and input VC (index port * VCs + vc): its front flit did not move this
  // cycle. The probe shows the front flit of input VC probe_vc_i of router probe_tile_i
  // (both registered at each clock edge, so the probe depends on state only): head bit,
  // source and destination.
  output logic [InVcs-1:0]     stall_o            [Tiles],
  // ... and why a flit that could have left did not, 2 bits per input VC (tsr_mesh_router
  // cause_o, tsr_pkg MeshStall*).
  output logic [2*InVcs-1:0]   stall_cause_o      [Tiles],
  // Per tile: the flit the NI put on the injection channel this cycle (head, tail, VC).
  output logic [Tiles-1:0]     inject_valid_o,
  output logic [Tiles-1:0]     inject_head_o,
  output logic [Tiles-1:0]     inject_tail_o,
  output mesh_vc_t             inject_vc_o        [Tiles],
  input  logic [15:0]          probe_tile_i,
  input  logic [InIdxWidth-1:0] probe_vc_i,
  output logic                 probe_head_o,
  output logic [5:0]           probe_src_row_o,
  output logic [5:0]           probe_src_col_o,
  output logic [5:0]           probe_dst_row_o,
  output logic [5:0]           probe_dst_col_o
);

  if (Rows < 1 || Rows > MeshMaxSide || Cols < 1 || Cols > MeshMaxSide) begin : gen_shape_check
    $fatal(1, "tsr_mesh_top: Rows and Cols must be 1..64");
  end
  if (FlitWidth < 8 || FlitWidth > 1024 || (FlitWidth & (FlitWidth - 1)) != 0)
  begin : gen_width_check
    $fatal(1, "tsr_mesh_top: FlitWidth must be a power of two from 8 to 1024");
  end
  if (VCs < 1 || VCs > MeshMaxVcs) begin : gen_vcs_check
    $fatal(1, "tsr_mesh_top: VCs must be 1..4");
  end
  if (BufferDepth < 1 || BufferDepth > 1024) begin : gen_depth_check
    $fatal(1, "tsr_mesh_top: BufferDepth must be 1..1024");
  end
  if (Wrap > 1) begin : gen_wrap_check
    $fatal(1, "tsr_mesh_top: Wrap must be 0 or 1");
  end

  // ---- Settings, loaded during reset; the probe's choice, every cycle -----------------
  // rst_ni is only ever an asynchronous reset: load_q, set by it and cleared at the first
  // clock edge after it, enables the settings' registers (Verilator's SYNCASYNCNET).
  logic        load_q;
  logic [15:0] alpha_q, gap_q, depth_q;
  mesh_delay_t delay_q;
  logic [4:0]  pipeline_q, credit_delay_q;
  logic [2:0]  vcs_q;
  mesh_routing_t routing_q;
  logic        wrap_q;
  logic [6:0]  rows_q, cols_q;

  logic [15:0] probe_tile_q;
  logic [InIdxWidth-1:0] probe_vc_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      load_q <= 1'b1;
    end else begin
      load_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    probe_tile_q <= probe_tile_i;
    probe_vc_q   <= probe_vc_i;
    if (load_q) begin
      alpha_q <= alpha_i;
      gap_q   <= inject_gap_i;
      delay_q <= router_delay_i;
      pipeline_q <= pipeline_i;
      credit_delay_q <= credit_delay_i;
      vcs_q   <= vcs_i;
      routing_q <= routing_i;
      wrap_q  <= Wrap != 0 && wrap_i;
      rows_q  <= rows_i;
      cols_q  <= cols_i;
      depth_q <= depth_i;
    end
  end

  // Width of a tile index, for the wraparound links' sources.
  localparam int unsigned TileIdx = idx_width(Tiles);

  typedef logic [FlitWidth-1:0] data_t;
  typedef struct packed {
    mesh_ctl_t ctl;
    data_t     data;
  } flit_t;

  logic [MeshLinks-1:0] in_valid  [Tiles];            // router n's link inputs
  flit_t                in_flit   [Tiles][MeshLinks];
  logic [VCs-1:0]       credit_up [Tiles][MeshPorts];  // router n's freed slots, per input
  logic [MeshPorts-1:0] out_valid [Tiles];
  flit_t                out_flit  [Tiles][MeshPorts];
  logic [VCs-1:0]       credit_dn [Tiles][MeshLinks];  // credits router n gets, per link
  mesh_ctl_t            probe     [Tiles];

  // Tile of the neighbour in direction p, or Tiles when the mesh ends there.
  function automatic int unsigned neighbour(int unsigned n, int unsigned p);
    int unsigned r, c;
    r = n / Cols;
    c = n % Cols;
    case (p)
      MeshEast:  return (c + 1 < Cols) ? n + 1 : Tiles;
      MeshWest:  return (c > 0) ? n - 1 : Tiles;
      MeshSouth: return (r + 1 < Rows) ? n + Cols : Tiles;
      default:   return (r > 0) ? n - Cols : Tiles;
    endcase
  endfunction

  for (genvar n = 0; n < Tiles; n++) begin : gen_tile
    localparam mesh_coord_t Here = '{row: 6'(n / Cols), col: 6'(n % Cols)};

    // Links: input p comes from the neighbour opposite to p (p ^ 1), its output p.
    localparam int unsigned R = n / Cols;
    localparam int unsigned C = n % Cols;
    for (genvar p = 0; p < MeshLinks; p++) begin : gen_link
      localparam int unsigned From = neighbour(n, p ^ 1);
      localparam int unsigned To = neighbour(n, p);
      if (Wrap == 0) begin : gen_mesh
        if (From < Tiles) begin : gen_in
          assign in_valid[n][p] = out_valid[From][p];
          assign in_flit[n][p]  = out_flit[From][p];
        end else begin : gen_in_edge
          assign in_valid[n][p] = 1'b0;
          assign in_flit[n][p]  = '0;
        end
        if (To < Tiles) begin : gen_credit
          assign credit_dn[n][p] = credit_up[To][p];
        end else begin : gen_credit_edge
          assign credit_dn[n][p] = '0;
        end
      end else begin : gen_torus
        // On a torus: the wraparound link into input p (wrap_in, from router wrap_from)
        // and out of output p (wrap_out, to router wrap_to); the mesh links between the
        // torus's last column (row) and the tiles beyond it are cut (cut_in: the E or S
        // input of the first tile beyond; cut_out: the credits of its W or N output).
        logic                wrap_in, wrap_out;
        logic [TileIdx-1:0]  wrap_from, wrap_to;
        if (p == MeshEast) begin : gen_e
          assign wrap_in   = wrap_q && C == 0;
          assign wrap_from = TileIdx'(R * Cols) + TileIdx'(cols_q) - TileIdx'(1);
          assign wrap_out  = wrap_q && 7'(C + 1) == cols_q;
          assign wrap_to   = TileIdx'(R * Cols);
        end else if (p == MeshWest) begin : gen_w
          assign wrap_in   = wrap_q && 7'(C + 1) == cols_q;
          assign wrap_from = TileIdx'(R * Cols);
          assign wrap_out  = wrap_q && C == 0;
          assign wrap_to   = TileIdx'(R * Cols) + TileIdx'(cols_q) - TileIdx'(1);
        end else if (p == MeshSouth) begin : gen_s
          assign wrap_in   = wrap_q && R == 0;
          assign wrap_from = (TileIdx'(rows_q) - TileIdx'(1)) * TileIdx'(Cols) + TileIdx'(C);
          assign wrap_out  = wrap_q && 7'(R + 1) == rows_q;
          assign wrap_to   = TileIdx'(C);
        end else begin : gen_n
          assign wrap_in   = wrap_q && 7'(R + 1) == rows_q;
          assign wrap_from = TileIdx'(C);
          assign wrap_out  = wrap_q && R == 0;
          assign wrap_to   = (TileIdx'(rows_q) - TileIdx'(1)) * TileIdx'(Cols) + TileIdx'(C);
        end
        if (From < Tiles) begin : gen_in
          logic cut_in;
          if (p == MeshEast) begin : gen_cut_e
            assign cut_in = wrap_q && 7'(C) == cols_q;
          end else if (p == MeshSouth) begin : gen_cut_s
            assign cut_in = wrap_q && 7'(R) == rows_q;
          end else begin : gen_no_cut
            assign cut_in = 1'b0;
          end
          assign in_valid[n][p] = wrap_in ? out_valid[wrap_from][p]
                                          : out_valid[From][p] && !cut_in;
          assign in_flit[n][p]  = wrap_in ? out_flit[wrap_from][p] : out_flit[From][p];
        end else begin : gen_in_edge
          assign in_valid[n][p] = wrap_in && out_valid[wrap_from][p];
          assign in_flit[n][p]  = out_flit[wrap_from][p];
        end
        if (To < Tiles) begin : gen_credit
          logic cut_out;
          if (p == MeshWest) begin : gen_cut_w
            assign cut_out = wrap_q && 7'(C) == cols_q;
          end else if (p == MeshNorth) begin : gen_cut_n
            assign cut_out = wrap_q && 7'(R) == rows_q;
          end else begin : gen_no_cut
            assign cut_out = 1'b0;
          end
          assign credit_dn[n][p] = wrap_out ? credit_up[wrap_to][p]
                                 : cut_out  ? '0 : credit_up[To][p];
        end else begin : gen_credit_edge
          assign credit_dn[n][p] = wrap_out ? credit_up[wrap_to][p] : '0;
        end
      end
    end

    logic  inject_valid, eject_ready, rx_valid;
    flit_t inject_flit, rx_flit;

    tsr_mesh_router #(
      .Rows(Rows), .Cols(Cols), .VCs(VCs), .BufferDepth(BufferDepth),
      .MaxPipeline(MaxPipeline), .MaxCreditDelay(MaxCreditDelay), .Wrap(Wrap), .flit_t(flit_t)
    ) i_router (
      .clk_i,
      .rst_ni,
      .here_i         (Here),
      .router_delay_i (delay_q),
      .pipeline_i     (pipeline_q),
      .credit_delay_i (credit_delay_q),
      .vcs_i          (vcs_q),
      .routing_i      (routing_q),
      .wrap_i         (wrap_q),
      .rows_i         (rows_q),
      .cols_i         (cols_q),
      .depth_i        (depth_q),
      .link_valid_i   (in_valid[n]),
      .link_flit_i    (in_flit[n]),
      .inject_valid_i (inject_valid),
      .inject_flit_i  (inject_flit),
      .credit_o       (credit_up[n]),
      .out_valid_o    (out_valid[n]),
      .out_flit_o     (out_flit[n]),
      .credit_i       (credit_dn[n]),
      .eject_ready_i  (eject_ready),
      .stall_o        (stall_o[n]),
      .cause_o        (stall_cause_o[n]),
      .probe_vc_i     (probe_vc_q),
      .probe_ctl_o    (probe[n])
    );

    tsr_mesh_ni #(
      .Rows(Rows), .Cols(Cols), .VCs(VCs), .BufferDepth(BufferDepth), .data_t(data_t),
      .flit_t(flit_t)
    ) i_ni (
      .clk_i,
      .rst_ni,
      .here_i             (Here),
      .alpha_i            (alpha_q),
      .gap_i              (gap_q),
      .vcs_i              (vcs_q),
      .depth_i            (depth_q),
      .msg_valid_i        (msg_valid_i[n]),
      .msg_ready_o        (msg_ready_o[n]),
      .msg_dst_i          ('{row: msg_dst_row_i[n], col: msg_dst_col_i[n]}),
      .msg_flits_i        (msg_flits_i[n]),
      .msg_packet_flits_i (msg_packet_flits_i[n]),
      .data_valid_i       (data_valid_i[n]),
      .data_i             (data_i[n]),
      .data_ready_o       (data_ready_o[n]),
      .inject_valid_o     (inject_valid),
      .inject_flit_o      (inject_flit),
      .inject_credit_i    (credit_up[n][MeshLocal]),
      .eject_valid_i      (out_valid[n][MeshLocal]),
      .eject_flit_i       (out_flit[n][MeshLocal]),
      .eject_ready_o      (eject_ready),
      .rx_valid_o         (rx_valid),
      .rx_flit_o          (rx_flit),
      .rx_ready_i         (rx_ready_i[n])
    );

    assign inject_valid_o[n] = inject_valid;
    assign inject_head_o[n]  = inject_valid && inject_flit.ctl.head;
    assign inject_tail_o[n]  = inject_valid && inject_flit.ctl.tail;
    assign inject_vc_o[n]    = inject_flit.ctl.vc;

    assign rx_valid_o[n]   = rx_valid;
    assign rx_head_o[n]    = rx_flit.ctl.head;
    assign rx_tail_o[n]    = rx_flit.ctl.tail;
    assign rx_vc_o[n]      = rx_flit.ctl.vc;
    assign rx_src_row_o[n] = rx_flit.ctl.src.row;
    assign rx_src_col_o[n] = rx_flit.ctl.src.col;
    assign rx_dst_row_o[n] = rx_flit.ctl.dst.row;
    assign rx_dst_col_o[n] = rx_flit.ctl.dst.col;
    assign rx_data_o[n]    = rx_flit.data;

    assign link_valid_o[n] = out_valid[n];
    for (genvar p = 0; p < MeshPorts; p++) begin : gen_head
      assign link_head_o[n][p]    = out_valid[n][p] && out_flit[n][p].ctl.head;
      assign link_tail_o[n][p]    = out_valid[n][p] && out_flit[n][p].ctl.tail;
      assign link_vc_o[n][p]      = out_flit[n][p].ctl.vc;
      assign link_src_row_o[n][p] = out_flit[n][p].ctl.src.row;
      assign link_src_col_o[n][p] = out_flit[n][p].ctl.src.col;
      assign link_dst_row_o[n][p] = out_flit[n][p].ctl.dst.row;
      assign link_dst_col_o[n][p] = out_flit[n][p].ctl.dst.col;
    end
  end

  // The probe: one router's probed input VC, or nothing for a tile outside the mesh.
  localparam int unsigned TileIdxWidth = idx_width(Tiles);
  logic                    probe_ok;
  logic [TileIdxWidth-1:0] probe_at;
  assign probe_ok        = 32'(probe_tile_q) < Tiles;
  assign probe_at        = TileIdxWidth'(probe_tile_q);
  assign probe_head_o    = probe_ok && probe[probe_at].head;
  assign probe_src_row_o = probe_ok ? probe[probe_at].src.row : '0;
  assign probe_src_col_o = probe_ok ? probe[probe_at].src.col : '0;
  assign probe_dst_row_o = probe_ok ? probe[probe_at].dst.row : '0;
  assign probe_dst_col_o = probe_ok ? probe[probe_at].dst.col : '0;

`ifndef SYNTHESIS
  // The settings the credits and VC choices start from must be in range (an immediate
  // assertion at the clock edge: no per-evaluation sampling in a Verilated model).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      SettingsInRange_A: assert (vcs_q >= 3'd1 && 32'(vcs_q) <= VCs && depth_q >= 16'd1 &&
                                 32'(depth_q) <= BufferDepth && gap_q >= 16'd1)
        else $error("tsr_mesh_top: vcs %0d (1..%0d), depth %0d (1..%0d) or inject_gap %0d (>= 1) out of range",
                    vcs_q, VCs, depth_q, BufferDepth, gap_q);
      TorusInRange_A: assert (!wrap_q || (rows_q >= 7'd1 && 32'(rows_q) <= Rows &&
                                          cols_q >= 7'd1 && 32'(cols_q) <= Cols && vcs_q >= 3'd2))
        else $error("tsr_mesh_top: torus %0dx%0d (1..%0d x 1..%0d) with vcs %0d (>= 2) out of range",
                    rows_q, cols_q, Rows, Cols, vcs_q);
    end
  end
`endif

endmodule
