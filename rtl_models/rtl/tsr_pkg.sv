// Shared types and helpers for Tessera RTL. Every tsr_* module imports from here so a
// width or an index rule is defined once. Functions assign to their own names: Yosys 0.23
// stops at a `return` (DESIGN.md, "Toolchain facts").
package tsr_pkg;

  // Width of an index into Count entries. One entry still gets a 1-bit index because a
  // zero-width vector is not legal SystemVerilog.
  function automatic int unsigned idx_width(int unsigned count);
    idx_width = (count > 1) ? $clog2(count) : 1;
  endfunction

  // Elements per group when a top packs an output vector from Count elements by loops
  // over groups (tsr_mesh_top): all of them up to 32, else the largest power of two up
  // to 32 that divides Count (a loop Verilator unrolls).
  function automatic int unsigned pack_group(int unsigned count);
    pack_group = (count <= 32)      ? count
               : (count % 32 == 0) ? 32
               : (count % 16 == 0) ? 16
               : (count % 8 == 0)  ? 8
               : (count % 4 == 0)  ? 4
               : (count % 2 == 0)  ? 2 : 1;
  endfunction

  // Width of a counter that must hold every value from 0 to Count inclusive; never zero,
  // so that a bad Count reaches the module's own parameter check instead of a width error.
  function automatic int unsigned cnt_width(int unsigned count);
    cnt_width = (count > 0) ? $clog2(count + 1) : 1;
  endfunction

  // ---- Torus fabric (tsr_torus_node, tsr_torus_top) -------------------------------------

  // Port numbers, as the tile runtime numbers them (runtime/routing.hpp port2d): east is
  // column + 1, south row + 1. A link's far end is its opposite port, port ^ 1.
  localparam int unsigned TorusEast = 0;
  localparam int unsigned TorusWest = 1;
  localparam int unsigned TorusSouth = 2;
  localparam int unsigned TorusNorth = 3;
  localparam int unsigned TorusLocal = 4;
  localparam int unsigned TorusLinks = 4;
  localparam int unsigned TorusPorts = 5;

  // A packet's header. It crosses a link in the first cycle of the hop, beside the
  // start-up (beta) of the store-and-forward model; the payload bytes follow.
  typedef struct packed {
    logic [15:0] src;        // tile that injected the packet
    logic [15:0] dst;        // unicast destination, row * Cols + col
    logic        multicast;  // route by the forwarding table entry of `tree` instead
    logic [3:0]  tree;       // forwarding table entry of a multicast packet
    logic [15:0] seq;        // the source's packet number (the testbench's bookkeeping)
    logic [15:0] len;        // payload bytes, at least 1
  } torus_hdr_t;

  // Bits of a torus_hdr_t, for ports that carry one header per port as a flat vector
  // (Yosys 0.23 reads neither unpacked array ports nor $bits of a package type).
  function automatic int unsigned torus_hdr_bits();
    torus_hdr_t hdr;
    hdr = '0;
    torus_hdr_bits = $bits(hdr);
  endfunction
  localparam int unsigned TorusHdrBits = torus_hdr_bits();

  // Dateline classes (Dally and Seitz). A unicast packet from the tile in row src_row,
  // column src_col is in class 1 at the node (row, col) it reaches travelling in
  // direction dir (TorusEast..TorusNorth) once its route in that dimension has wrapped
  // round the ring, in class 0 before. Its route in a dimension starts in the source's
  // column (columns go first) or row and covers at most half the ring, so it has wrapped
  // exactly when the node lies past that column or row from the far side: travelling
  // east at column col < src_col; west, col > src_col; south at row row < src_row;
  // north, row > src_row.
  function automatic logic torus_dateline(int unsigned dir, logic [15:0] row,
                                          logic [15:0] col, logic [15:0] src_row,
                                          logic [15:0] src_col);
    case (dir)
      TorusEast:  torus_dateline = col < src_col;
      TorusWest:  torus_dateline = col > src_col;
      TorusSouth: torus_dateline = row < src_row;
      default:    torus_dateline = row > src_row;
    endcase
  endfunction

  // One cycle of a link: a header starting a packet and/or one payload byte.
  typedef struct packed {
    logic       hdr_valid;
    torus_hdr_t hdr;
    logic       byte_valid;
    logic [7:0] data;
  } torus_link_t;

  // Bits of a torus_link_t, for ports that carry one link per port or per tile as a flat
  // vector (as TorusHdrBits).
  function automatic int unsigned torus_link_bits();
    torus_link_t torus_link;
    torus_link = '0;
    torus_link_bits = $bits(torus_link);
  endfunction
  localparam int unsigned TorusLinkBits = torus_link_bits();

  // A message request to a torus network interface (tsr_torus_ni): its packets take
  // sequence numbers seq, seq + 1, ...
  typedef struct packed {
    logic [15:0] dst;           // unicast destination
    logic        multicast;     // send every packet on forwarding entry `tree`
    logic [3:0]  tree;
    logic [15:0] seq;           // the first packet's number
    logic [15:0] len;           // payload bytes of the whole message, at least 1
    logic [15:0] packet_bytes;  // bytes per packet, 0: one packet; the last is shorter
  } torus_msg_t;

  // Bits of a torus_msg_t, for tsr_torus_top's per-tile message port (as TorusHdrBits).
  function automatic int unsigned torus_msg_bits();
    torus_msg_t torus_msg;
    torus_msg = '0;
    torus_msg_bits = $bits(torus_msg);
  endfunction
  localparam int unsigned TorusMsgBits = torus_msg_bits();

  // ---- Wormhole mesh (tsr_mesh_router, tsr_mesh_ni, tsr_mesh_top) -----------------------

  // Port numbers, as for the torus (east is column + 1, south row + 1). A mesh link joins
  // output port p of a router to input port p of its neighbour in direction p, so an
  // input is named by the direction its flits travel, as in the wormhole engine
  // (docs/wormhole.md, "Arbitration"): input 0 carries flits travelling east.
  localparam int unsigned MeshEast = 0;
  localparam int unsigned MeshWest = 1;
  localparam int unsigned MeshSouth = 2;
  localparam int unsigned MeshNorth = 3;
  localparam int unsigned MeshLocal = 4;
  localparam int unsigned MeshLinks = 4;
  localparam int unsigned MeshPorts = 5;

  // Virtual channels per physical channel: a router's VCs parameter is 1..MeshMaxVcs.
  localparam int unsigned MeshMaxVcs = 4;
  typedef logic [1:0] mesh_vc_t;

  // An output port of a mesh router (MeshEast .. MeshLocal).
  typedef logic [2:0] mesh_port_t;

  // A tile's place in the mesh, row and column 0..MeshMaxSide - 1. Flits carry
  // coordinates, not tile ids, so routing is a comparison and a smaller mesh runs as the
  // top-left corner of a larger one. Six bits keep a flit with a 32-bit payload and its
  // route in 64 bits, which Verilator moves as one word.
  localparam int unsigned MeshMaxSide = 64;
  typedef struct packed {
    logic [5:0] row;
    logic [5:0] col;
  } mesh_coord_t;

  // A flit's control fields. The head flit's dst routes the packet (with src for the
  // odd-even routing, and odd for O1TURN); every flit carries src so an ejecting NI can
  // tell packets apart, and vc: on a channel, the VC the flit holds on it, which is the
  // input VC FIFO it enters at the far end.
  typedef struct packed {
    logic        head;  // first flit of a packet
    logic        tail;  // last flit of a packet (a one-flit packet is head and tail)
    logic        odd;   // the packet is odd-numbered at its source (O1TURN's YX class)
    mesh_vc_t    vc;    // virtual channel on the channel the flit is crossing
    mesh_coord_t dst;   // destination tile
    mesh_coord_t src;   // tile that injected the packet
  } mesh_ctl_t;

  // Bits of a mesh_ctl_t (Yosys 0.23 takes $bits of a variable, not of a package type).
  function automatic int unsigned mesh_ctl_bits();
    mesh_ctl_t ctl;
    ctl = '0;
    mesh_ctl_bits = $bits(ctl);
  endfunction
  localparam int unsigned MeshCtlBits = mesh_ctl_bits();

  // A flit is a packed vector of MeshCtlBits + DataWidth bits, its mesh_ctl_t above its
  // payload: {ctl, data}. The payload width is a parameter of the routers, NIs and tops
  // (DataWidth, FlitWidth), and neither Yosys 0.23 nor a package can give a struct a
  // parameter's width, so the modules slice the vector: ctl at [DataWidth +: MeshCtlBits],
  // the payload at [0 +: DataWidth]. Nothing outside the RTL sees this layout: the tops
  // bring the fields out one by one.

  // The router delay r, 0..255 cycles (tsr_mesh_delay counts cycles modulo 256).
  typedef logic [7:0] mesh_delay_t;

  // The routing function of a mesh (tsr_mesh_route's routing_i), the same in every
  // router: dimension order, columns first (XY) or rows first (YX); O1TURN (XY or YX per
  // packet, on two VC classes); the turn-model adaptive routings west-first, north-last,
  // negative-first and odd-even. The codes are net::mesh_routing's values.
  typedef logic [2:0] mesh_routing_t;
  localparam logic [2:0] MeshRouteXy = 3'd0;
  localparam logic [2:0] MeshRouteYx = 3'd1;
  localparam logic [2:0] MeshRouteO1turn = 3'd2;
  localparam logic [2:0] MeshRouteWestFirst = 3'd3;
  localparam logic [2:0] MeshRouteNorthLast = 3'd4;
  localparam logic [2:0] MeshRouteNegativeFirst = 3'd5;
  localparam logic [2:0] MeshRouteOddEven = 3'd6;
  localparam int unsigned MeshRoutings = 7;

  // Why a mesh router's ready flit waited a cycle (tsr_mesh_router cause_o), as the
  // statistics of docs/wormhole.md name the causes.
  localparam logic [1:0] MeshStallNone = 2'd0;
  localparam logic [1:0] MeshStallNoCredit = 2'd1;
  localparam logic [1:0] MeshStallArbitration = 2'd2;
  localparam logic [1:0] MeshStallNoVc = 2'd3;

  // ---- Hypercube fabric (tsr_cube_node, tsr_cube_ni, tsr_cube_top) -----------------------

  // Arbitration between setup headers asking for one free output (arb_i).
  localparam logic CubeArbLowestId = 1'b0;    // the lowest source tile (Bokhari Fig. 6)
  localparam logic CubeArbRoundRobin = 1'b1;  // the first source at or after the pointer

  // Message slots of a network interface (tsr_cube_ni), each on a local input of its node
  // (inputs D and D + 1): one message streams while the next starts up and sets up its
  // path (pre-setup, Boppana and Raghavendra §3.3).
  localparam int unsigned CubeSlots = 2;

  // A message's setup header: it claims the e-cube path one link at a time.
  typedef struct packed {
    logic [15:0] src;  // source tile
    logic [15:0] dst;  // destination tile
    logic [15:0] seq;  // the source's message number (the testbench's bookkeeping)
    logic [15:0] len;  // elements k, at least 1
  } cube_hdr_t;

  // The setup channel of a link: a header in one cycle.
  typedef struct packed {
    logic      valid;
    cube_hdr_t hdr;
  } cube_setup_t;

  // The stream channel of a link: one element per cycle, its DataWidth bits on a bus
  // beside this (a package type cannot take a module's parameter). Setup and stream are
  // separate variables because a grant made from the setup channel steers the stream
  // channel in the same cycle: in one struct, Verilator would see a combinational loop.
  typedef struct packed {
    logic valid;
    logic last;  // the tail element: it tears the circuit down behind it
  } cube_stream_t;

  // A message request to a network interface.
  typedef struct packed {
    logic [15:0] dst;
    logic [15:0] seq;
    logic [15:0] len;  // elements k, at least 1
  } cube_req_t;

  // Bits of each type above, for the cube's ports that carry one value per tile, link,
  // input, output or slot as a flat vector (Yosys 0.23 reads neither unpacked array ports
  // nor $bits of a package type; as TorusHdrBits).
  function automatic int unsigned cube_hdr_bits();
    cube_hdr_t cube_hdr;
    cube_hdr = '0;
    cube_hdr_bits = $bits(cube_hdr);
  endfunction
  function automatic int unsigned cube_setup_bits();
    cube_setup_t cube_setup;
    cube_setup = '0;
    cube_setup_bits = $bits(cube_setup);
  endfunction
  function automatic int unsigned cube_stream_bits();
    cube_stream_t cube_stream;
    cube_stream = '0;
    cube_stream_bits = $bits(cube_stream);
  endfunction
  function automatic int unsigned cube_req_bits();
    cube_req_t cube_req;
    cube_req = '0;
    cube_req_bits = $bits(cube_req);
  endfunction
  localparam int unsigned CubeHdrBits = cube_hdr_bits();        // 64
  localparam int unsigned CubeSetupBits = cube_setup_bits();    // 65
  localparam int unsigned CubeStreamBits = cube_stream_bits();  // 2
  localparam int unsigned CubeReqBits = cube_req_bits();        // 48

endpackage
