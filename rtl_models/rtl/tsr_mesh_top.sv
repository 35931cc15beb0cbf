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
// bit layout. A port with a value per tile is one flat vector, tile n's W bits at
// [n * W +: W] (the subset Yosys 0.23 reads has no array ports; docs/rtl.md, "Style");
// per tile and router port p, at [(n * MeshPorts + p) * W +: W]; per tile and input VC i
// (port * VCs + vc), at [(n * InVcs + i) * W +: W].
module tsr_mesh_top #(
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
  /// Slots of a router's head-delay ring, a power of two from 2 to 256 (tsr_mesh_router):
  /// router_delay_i + pipeline_i - 1 below it.
  parameter int unsigned DelaySlots = 256,
  /// 1: build the wraparound links of a torus (wrap_i); 0 leaves them and wrap_i out.
  parameter int unsigned Wrap = 1,
  /// 1: build the observation outputs (link_*, stall_*, inject_*, probe_*); 0 ties them
  /// to 0, so that a synthesis for area counts the fabric alone.
  parameter int unsigned Observe = 1,
  /// Tiles; derived, do not override.
  localparam int unsigned Tiles = Rows * Cols,
  /// Ports of a router; derived, do not override.
  localparam int unsigned Ports = tsr_pkg::MeshPorts,
  /// Input VCs of a router; derived, do not override.
  localparam int unsigned InVcs = Ports * VCs,
  /// Width of an input VC index (probe_vc_i); derived, do not override.
  localparam int unsigned InIdxWidth = tsr_pkg::idx_width(InVcs)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Run-time settings, every router and NI, loaded at the clock edges during reset and
  // at the first edge after it: hold them from reset on.
  input  logic [15:0]          alpha_i,         // start-up cycles per message
  input  logic [15:0]          inject_gap_i,    // cycles per injected flit, at least 1
  input  tsr_pkg::mesh_delay_t router_delay_i,  // r, 0..255 (r + pipeline - 1 at most 255)
  input  logic [4:0]           pipeline_i,      // router pipeline depth, 1..MaxPipeline
  input  logic [4:0]           credit_delay_i,  // a freed slot serves, 1..MaxCreditDelay
  input  logic [2:0]           vcs_i,           // VCs in use, 1..VCs
  input  tsr_pkg::mesh_routing_t routing_i,     // tsr_pkg MeshRoute*
  input  logic                 wrap_i,          // a torus (Wrap only; else a mesh)
  input  logic [6:0]           rows_i,          // ... of rows_i x cols_i, 1..Rows, 1..Cols
  input  logic [6:0]           cols_i,
  input  logic [15:0]          depth_i,         // usable slots per VC FIFO, 1..BufferDepth
  // Per tile: the NI's message port (destination row and column, flits, flits per
  // packet) and its payload words.
  input  logic [Tiles-1:0]           msg_valid_i,
  output logic [Tiles-1:0]           msg_ready_o,
  input  logic [6*Tiles-1:0]         msg_dst_row_i,
  input  logic [6*Tiles-1:0]         msg_dst_col_i,
  input  logic [16*Tiles-1:0]        msg_flits_i,
  input  logic [16*Tiles-1:0]        msg_packet_flits_i,
  input  logic [Tiles-1:0]           data_valid_i,
  input  logic [FlitWidth*Tiles-1:0] data_i,
  output logic [Tiles-1:0]           data_ready_o,
  // Per tile: the flit ejected this cycle, and the tile's readiness to take one in the
  // next cycle.
  // Control words (here and below) are a flit's tsr_pkg::mesh_ctl_t in the low bits of a
  // 32-bit lane, so that a Verilated model stores each as one word.
  output logic [Tiles-1:0]           rx_valid_o,
  output logic [32*Tiles-1:0]        rx_ctl_o,
  output logic [FlitWidth*Tiles-1:0] rx_data_o,
  input  logic [Tiles-1:0]           rx_ready_i,
  // Observability per router and output port: the flits that crossed this cycle ...
  output logic [Ports*Tiles-1:0]     link_valid_o,
  // ... and each such flit's control word (head, tail, VC, source and destination), for
  // the timeline's link tracks (which worm held which VC of a link, head to tail).
  output logic [32*Ports*Tiles-1:0]  link_ctl_o,
  // Per router and input VC: its front flit did not move this cycle. The probe shows the
  // front flit of input VC probe_vc_i of router probe_tile_i (both registered at each
  // clock edge, so the probe depends on state only): head bit, source and destination.
  output logic [InVcs*Tiles-1:0]     stall_o,
  // ... and why a flit that could have left did not, 2 bits per input VC (tsr_mesh_router
  // cause_o, tsr_pkg MeshStall*).
  output logic [2*InVcs*Tiles-1:0]   stall_cause_o,
  // Per tile: the flit the NI put on the injection channel this cycle, its control word.
  output logic [Tiles-1:0]           inject_valid_o,
  output logic [32*Tiles-1:0]        inject_ctl_o,
  input  logic [15:0]          probe_tile_i,
  input  logic [InIdxWidth-1:0] probe_vc_i,
  output logic                 probe_head_o,
  output logic [5:0]           probe_src_row_o,
  output logic [5:0]           probe_src_col_o,
  output logic [5:0]           probe_dst_row_o,
  output logic [5:0]           probe_dst_col_o
);

  if (Rows < 1 || Rows > tsr_pkg::MeshMaxSide || Cols < 1 || Cols > tsr_pkg::MeshMaxSide) begin : gen_shape_check
    $fatal(1, "tsr_mesh_top: Rows and Cols must be 1..64");
  end
  if (FlitWidth < 8 || FlitWidth > 1024 || (FlitWidth & (FlitWidth - 1)) != 0)
  begin : gen_width_check
    $fatal(1, "tsr_mesh_top: FlitWidth must be a power of two from 8 to 1024");
  end
  if (VCs < 1 || VCs > tsr_pkg::MeshMaxVcs) begin : gen_vcs_check
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
  tsr_pkg::mesh_delay_t delay_q;
  logic [4:0]  pipeline_q, credit_delay_q;
  logic [2:0]  vcs_q;
  tsr_pkg::mesh_routing_t routing_q;
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
  localparam int unsigned TileIdx = tsr_pkg::idx_width(Tiles);
  localparam int unsigned Links = tsr_pkg::MeshLinks;
  localparam int unsigned Local = tsr_pkg::MeshLocal;
  localparam int unsigned CtlBits = tsr_pkg::MeshCtlBits;
  localparam int unsigned FlitBits = CtlBits + FlitWidth;  // {ctl, data} (tsr_pkg)
  if (CtlBits > 32) begin : gen_ctl_check
    $fatal(1, "tsr_mesh_top: a control word must fit the 32-bit lanes of rx_ctl_o");
  end

  // Per router: its output flits (port p's at [p * FlitBits +: FlitBits]) and valid bits,
  // the slots its inputs freed (credit_o: input VC port * VCs + vc), the flits its NI
  // injects and takes.
  logic [Ports-1:0]          out_valid   [Tiles];
  logic [Ports*FlitBits-1:0] out_flit    [Tiles];
  logic [InVcs-1:0]          credit_up   [Tiles];
  logic                      inject_valid [Tiles];
  logic                      rx_valid    [Tiles];
  logic [FlitBits-1:0]       inject_flit [Tiles];
  logic [FlitBits-1:0]       rx_flit     [Tiles];
  logic [CtlBits-1:0]        probe       [Tiles];  // tsr_pkg::mesh_ctl_t each

  // The per-tile outputs, an element per tile (per tile and port: K = n * Ports + p),
  // packed into the output vectors below.
  logic                 msg_ready  [Tiles];
  logic                 data_ready [Tiles];
  logic [InVcs-1:0]     stall      [Tiles];
  logic [2*InVcs-1:0]   cause      [Tiles];
  logic [31:0]          rx_ctl     [Tiles];
  logic                 inj_valid  [Tiles];
  logic [31:0]          inj_ctl    [Tiles];
  logic                 lk_valid   [Tiles*Ports];
  logic [31:0]          lk_ctl     [Tiles*Ports];

  // Tile of the neighbour in direction p, or Tiles when the mesh ends there.
  // Evaluated at elaboration only: no coverage points (docs/rtl.md "Coverage").
  /* verilator coverage_off */
  function automatic int unsigned neighbour(int unsigned n, int unsigned p);
    case (p)
      tsr_pkg::MeshEast:  neighbour = (n % Cols + 1 < Cols) ? n + 1 : Tiles;
      tsr_pkg::MeshWest:  neighbour = (n % Cols > 0) ? n - 1 : Tiles;
      tsr_pkg::MeshSouth: neighbour = (n / Cols + 1 < Rows) ? n + Cols : Tiles;
      default:            neighbour = (n / Cols > 0) ? n - Cols : Tiles;
    endcase
  endfunction
  /* verilator coverage_on */

  for (genvar n = 0; n < Tiles; n++) begin : gen_tile
    // This tile's coordinate, a tsr_pkg::mesh_coord_t {row, col}.
    localparam logic [11:0] Here = {6'(n / Cols), 6'(n % Cols)};

    // Router n's link inputs (link p's flit at [p * FlitBits +: FlitBits]) and the
    // credits it gets back per link and VC (link * VCs + vc).
    logic [Links-1:0]          in_valid;
    logic [Links*FlitBits-1:0] in_flit;
    logic [Links*VCs-1:0]      credit_dn;

    // Links: input p comes from the neighbour opposite to p (p ^ 1), its output p.
    localparam int unsigned R = n / Cols;
    localparam int unsigned C = n % Cols;
    for (genvar p = 0; p < Links; p++) begin : gen_link
      localparam int unsigned From = neighbour(n, p ^ 1);
      localparam int unsigned To = neighbour(n, p);
      if (Wrap == 0) begin : gen_mesh
        if (From < Tiles) begin : gen_in
          assign in_valid[p]                      = out_valid[From][p];
          assign in_flit[p*FlitBits+:FlitBits]    = out_flit[From][p*FlitBits+:FlitBits];
        end else begin : gen_in_edge
          assign in_valid[p]                      = 1'b0;
          assign in_flit[p*FlitBits+:FlitBits]    = '0;
        end
        if (To < Tiles) begin : gen_credit
          assign credit_dn[p*VCs+:VCs] = credit_up[To][p*VCs+:VCs];
        end else begin : gen_credit_edge
          assign credit_dn[p*VCs+:VCs] = '0;
        end
      end else begin : gen_torus
        // On a torus: the wraparound link into input p (wrap_in, from router wrap_from)
        // and out of output p (wrap_out, to router wrap_to); the mesh links between the
        // torus's last column (row) and the tiles beyond it are cut (cut_in: the E or S
        // input of the first tile beyond; cut_out: the credits of its W or N output).
        logic                wrap_in, wrap_out;
        logic [TileIdx-1:0]  wrap_from, wrap_to;
        logic                wrap_valid;  // router wrap_from's output p
        logic [FlitBits-1:0] wrap_flit;
        logic [VCs-1:0]      wrap_credit; // router wrap_to's freed slots at its input p
        if (p == tsr_pkg::MeshEast) begin : gen_e
          assign wrap_in   = wrap_q && C == 0;
          assign wrap_from = TileIdx'(R * Cols) + TileIdx'(cols_q) - TileIdx'(1);
          assign wrap_out  = wrap_q && 7'(C + 1) == cols_q;
          assign wrap_to   = TileIdx'(R * Cols);
        end else if (p == tsr_pkg::MeshWest) begin : gen_w
          assign wrap_in   = wrap_q && 7'(C + 1) == cols_q;
          assign wrap_from = TileIdx'(R * Cols);
          assign wrap_out  = wrap_q && C == 0;
          assign wrap_to   = TileIdx'(R * Cols) + TileIdx'(cols_q) - TileIdx'(1);
        end else if (p == tsr_pkg::MeshSouth) begin : gen_s
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
        assign wrap_valid  = out_valid[wrap_from][p];
        assign wrap_flit   = out_flit[wrap_from][p*FlitBits+:FlitBits];
        assign wrap_credit = credit_up[wrap_to][p*VCs+:VCs];
        if (From < Tiles) begin : gen_in
          logic cut_in;
          if (p == tsr_pkg::MeshEast) begin : gen_cut_e
            assign cut_in = wrap_q && 7'(C) == cols_q;
          end else if (p == tsr_pkg::MeshSouth) begin : gen_cut_s
            assign cut_in = wrap_q && 7'(R) == rows_q;
          end else begin : gen_no_cut
            assign cut_in = 1'b0;
          end
          assign in_valid[p] = wrap_in ? wrap_valid : out_valid[From][p] && !cut_in;
          assign in_flit[p*FlitBits+:FlitBits] =
              wrap_in ? wrap_flit : out_flit[From][p*FlitBits+:FlitBits];
        end else begin : gen_in_edge
          assign in_valid[p] = wrap_in && wrap_valid;
          assign in_flit[p*FlitBits+:FlitBits] = wrap_flit;
        end
        if (To < Tiles) begin : gen_credit
          logic cut_out;
          if (p == tsr_pkg::MeshWest) begin : gen_cut_w
            assign cut_out = wrap_q && 7'(C) == cols_q;
          end else if (p == tsr_pkg::MeshNorth) begin : gen_cut_n
            assign cut_out = wrap_q && 7'(R) == rows_q;
          end else begin : gen_no_cut
            assign cut_out = 1'b0;
          end
          assign credit_dn[p*VCs+:VCs] = wrap_out ? wrap_credit
                                       : cut_out  ? '0 : credit_up[To][p*VCs+:VCs];
        end else begin : gen_credit_edge
          assign credit_dn[p*VCs+:VCs] = wrap_out ? wrap_credit : '0;
        end
      end
    end

    logic eject_ready;

    tsr_mesh_router #(
      .Rows(Rows), .Cols(Cols), .VCs(VCs), .BufferDepth(BufferDepth),
      .MaxPipeline(MaxPipeline), .MaxCreditDelay(MaxCreditDelay), .DelaySlots(DelaySlots),
      .Wrap(Wrap), .DataWidth(FlitWidth), .Observe(Observe)
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
      .link_valid_i   (in_valid),
      .link_flit_i    (in_flit),
      .inject_valid_i (inject_valid[n]),
      .inject_flit_i  (inject_flit[n]),
      .credit_o       (credit_up[n]),
      .out_valid_o    (out_valid[n]),
      .out_flit_o     (out_flit[n]),
      .credit_i       (credit_dn),
      .eject_ready_i  (eject_ready),
      .stall_o        (stall[n]),
      .cause_o        (cause[n]),
      .probe_vc_i     (probe_vc_q),
      .probe_ctl_o    (probe[n])
    );

    tsr_mesh_ni #(
      .Rows(Rows), .Cols(Cols), .VCs(VCs), .BufferDepth(BufferDepth), .DataWidth(FlitWidth)
    ) i_ni (
      .clk_i,
      .rst_ni,
      .here_i             (Here),
      .alpha_i            (alpha_q),
      .gap_i              (gap_q),
      .vcs_i              (vcs_q),
      .depth_i            (depth_q),
      .msg_valid_i        (msg_valid_i[n]),
      .msg_ready_o        (msg_ready[n]),
      .msg_dst_i          ({msg_dst_row_i[6*n+:6], msg_dst_col_i[6*n+:6]}),
      .msg_flits_i        (msg_flits_i[16*n+:16]),
      .msg_packet_flits_i (msg_packet_flits_i[16*n+:16]),
      .data_valid_i       (data_valid_i[n]),
      .data_i             (data_i[FlitWidth*n+:FlitWidth]),
      .data_ready_o       (data_ready[n]),
      .inject_valid_o     (inject_valid[n]),
      .inject_flit_o      (inject_flit[n]),
      .inject_credit_i    (credit_up[n][Local*VCs+:VCs]),
      .eject_valid_i      (out_valid[n][Local]),
      .eject_flit_i       (out_flit[n][Local*FlitBits+:FlitBits]),
      .eject_ready_o      (eject_ready),
      .rx_valid_o         (rx_valid[n]),
      .rx_flit_o          (rx_flit[n]),
      .rx_ready_i         (rx_ready_i[n])
    );
  end

  // ---- The tiles' side: control words -------------------------------------------------
  for (genvar n = 0; n < Tiles; n++) begin : gen_fields
    assign rx_ctl[n] = 32'(rx_flit[n][FlitWidth+:CtlBits]);
    if (Observe != 0) begin : gen_observe
      assign inj_valid[n] = inject_valid[n];
      assign inj_ctl[n]   = 32'(inject_flit[n][FlitWidth+:CtlBits]);
      for (genvar p = 0; p < Ports; p++) begin : gen_port
        assign lk_valid[n*Ports+p] = out_valid[n][p];
        assign lk_ctl[n*Ports+p]   = 32'(out_flit[n][p*FlitBits+FlitWidth+:CtlBits]);
      end
    end else begin : gen_no_observe
      assign inj_valid[n] = 1'b0;
      assign inj_ctl[n]   = '0;
      for (genvar p = 0; p < Ports; p++) begin : gen_port
        assign lk_valid[n*Ports+p] = 1'b0;
        assign lk_ctl[n*Ports+p]   = '0;
      end
    end
  end

  // ---- The output vectors ---------------------------------------------------------------
  // Each packed from its elements in a block of its own, by loops over groups of at most
  // 32 elements: Verilator 5.006 merges adjacent slice assignments (an assign per tile)
  // into one growing concatenation, and leaves a loop of more than 64 iterations rolled
  // (every slice at a computed offset); a group's loop is unrolled into word copies.
  localparam int unsigned TileGroup = tsr_pkg::pack_group(Tiles);
  localparam int unsigned PortGroup = tsr_pkg::pack_group(Tiles * Ports);

`define TSR_MESH_PACK(OUT, W, N, GROUP, ELEM) \
  always_comb begin \
    for (int unsigned g = 0; g < (N); g += (GROUP)) begin \
      for (int unsigned i = 0; i < (GROUP); i++) begin \
        OUT[(g+i)*(W) +: (W)] = ELEM; \
      end \
    end \
  end

  `TSR_MESH_PACK(msg_ready_o,    1,           Tiles, TileGroup, msg_ready[g+i])
  `TSR_MESH_PACK(data_ready_o,   1,           Tiles, TileGroup, data_ready[g+i])
  `TSR_MESH_PACK(rx_valid_o,     1,           Tiles, TileGroup, rx_valid[g+i])
  `TSR_MESH_PACK(rx_ctl_o,       32,          Tiles, TileGroup, rx_ctl[g+i])
  `TSR_MESH_PACK(rx_data_o,      FlitWidth,   Tiles, TileGroup, rx_flit[g+i][FlitWidth-1:0])
  `TSR_MESH_PACK(stall_o,        InVcs,       Tiles, TileGroup, stall[g+i])
  `TSR_MESH_PACK(stall_cause_o,  2*InVcs,     Tiles, TileGroup, cause[g+i])
  `TSR_MESH_PACK(inject_valid_o, 1,           Tiles, TileGroup, inj_valid[g+i])
  `TSR_MESH_PACK(inject_ctl_o,   32,          Tiles, TileGroup, inj_ctl[g+i])
  `TSR_MESH_PACK(link_valid_o,   1,     Tiles*Ports, PortGroup, lk_valid[g+i])
  `TSR_MESH_PACK(link_ctl_o,     32,    Tiles*Ports, PortGroup, lk_ctl[g+i])
`undef TSR_MESH_PACK

  // ---- Observation: the probe ----------------------------------------------------------
  tsr_pkg::mesh_ctl_t probe_ctl;  // (module level: Yosys reads its fields only there)

  if (Observe != 0) begin : gen_probe
    // The probe: one router's probed input VC, or nothing for a tile outside the mesh.
    localparam int unsigned TileIdxWidth = tsr_pkg::idx_width(Tiles);
    logic                    probe_ok;
    logic [TileIdxWidth-1:0] probe_at;
    assign probe_ok  = 32'(probe_tile_q) < Tiles;
    assign probe_at  = TileIdxWidth'(probe_tile_q);
    assign probe_ctl = probe[probe_at];
    assign probe_head_o    = probe_ok && probe_ctl.head;
    assign probe_src_row_o = probe_ok ? probe_ctl.src.row : '0;
    assign probe_src_col_o = probe_ok ? probe_ctl.src.col : '0;
    assign probe_dst_row_o = probe_ok ? probe_ctl.dst.row : '0;
    assign probe_dst_col_o = probe_ok ? probe_ctl.dst.col : '0;
  end else begin : gen_no_probe
    logic unused_probe;  // (the probe's registers, left for synthesis to remove)
    assign unused_probe    = ^{probe_tile_q, probe_vc_q, probe[0], probe_ctl};
    assign probe_ctl       = '0;
    assign probe_head_o    = '0;
    assign probe_src_row_o = '0;
    assign probe_src_col_o = '0;
    assign probe_dst_row_o = '0;
    assign probe_dst_col_o = '0;
  end

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
