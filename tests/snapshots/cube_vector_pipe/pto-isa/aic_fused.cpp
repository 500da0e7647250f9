extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
    // 16384 B of L1 at 0x0
    using a_l1_t = Tile<TileType::Mat, float, 64, 64, BLayout::ColMajor, 64, 64, SLayout::RowMajor, 512>;
    a_l1_t a_l1;
    TASSIGN(a_l1, 0x0);
    // 16384 B of L1 at 0x4000
    using b_l1_t = Tile<TileType::Mat, float, 64, 64, BLayout::ColMajor, 64, 64, SLayout::RowMajor, 512>;
    b_l1_t b_l1;
    TASSIGN(b_l1, 0x4000);
    // 16384 B of L0A at 0x0
    using a_l0_t = TileLeft<float, 64, 64, 64, 64>;
    a_l0_t a_l0;
    TASSIGN(a_l0, 0x0);
    // 16384 B of L0B at 0x0
    using b_l0_t = TileRight<float, 64, 64, 64, 64>;
    b_l0_t b_l0;
    TASSIGN(b_l0, 0x0);
    // 16384 B of L0C at 0x0
    using prod_t = TileAcc<float, 64, 64, 64, 64>;
    prod_t prod;
    TASSIGN(prod, 0x0);
    using pipe0_t = TPipe<0, Direction::DIR_C2V, 16384, 8, 2, true>;
    pipe0_t pipe0(nullptr, static_cast<uint32_t>(0), 0u);
    {
        GlobalTensor<float, Shape<1, 1, 1, 64, 64>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 0, {0, 0}), Shape<1, 1, 1, 64, 64>(), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 0, 64), 1));
        TLOAD(a_l1, gm);
    }
    {
        GlobalTensor<float, Shape<1, 1, 1, 64, 64>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 1, {0, 0}), Shape<1, 1, 1, 64, 64>(), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 1, 64), 1));
        TLOAD(b_l1, gm);
    }
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    TMOV(a_l0, a_l1);
    TMOV(b_l0, b_l1);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    TMATMUL(prod, a_l0, b_l0);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    TPUSH<pipe0_t, prod_t, TileSplitAxis::TILE_NO_SPLIT>(pipe0, prod);
    set_flag(PIPE_FIX, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_FIX, PIPE_S, EVENT_ID7);
}
