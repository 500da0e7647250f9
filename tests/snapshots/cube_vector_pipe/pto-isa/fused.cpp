extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
    // 16384 B of the unified buffer (UB) at 0x0
    using prod_1_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    prod_1_t prod_1(64, 64);
    TASSIGN(prod_1, 0x0);
    // 256 B of the unified buffer (UB) at 0x4000
    using shift_t = Tile<TileType::Vec, float, 64, 1, BLayout::ColMajor, -1, -1>;
    shift_t shift(64, 1);
    TASSIGN(shift, 0x4000);
    // 16384 B of the unified buffer (UB) at 0x4200
    using shifted_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    shifted_t shifted(64, 64);
    TASSIGN(shifted, 0x4200);
    // 16384 B of the unified buffer (UB) at 0x0
    using t_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    t_t t(64, 64);
    TASSIGN(t, 0x0);
    // 16384 B of the unified buffer (UB) at 0x4000
    using t_1_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    t_1_t t_1(64, 64);
    TASSIGN(t_1, 0x4000);
    using pipe0_1_t = TPipe<0, Direction::DIR_C2V, 16384, 8, 2, true>;
    pipe0_1_t pipe0_1(nullptr, static_cast<uint32_t>(0), 0u);
    prod_1.SetValidShape(64, 64);
    TPOP<pipe0_1_t, prod_1_t, TileSplitAxis::TILE_NO_SPLIT>(pipe0_1, prod_1);
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 2, {0, 0}, 64, 1, vr, vc);
        shift.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 2, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 2, 1), 1));
        TLOAD(shift, gm);
    }
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    shifted.SetValidShape(prod_1.GetValidRow(), prod_1.GetValidCol());
    TROWEXPANDADD(shifted, prod_1, shift);
    set_flag(PIPE_V, PIPE_S, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
    TFREE<pipe0_1_t, TileSplitAxis::TILE_NO_SPLIT>(pipe0_1);
    set_flag(PIPE_S, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_S, PIPE_V, EVENT_ID0);
    pipe_barrier(PIPE_V);
    t.SetValidShape(shifted.GetValidRow(), shifted.GetValidCol());
    TSUBS(t, shifted, static_cast<float>(4.0));
    pipe_barrier(PIPE_V);
    t_1.SetValidShape(t.GetValidRow(), t.GetValidCol());
    TRELU(t_1, t);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 3, {0, 0}, 64, 64, vr, vc);
        const unsigned keep_r = t_1.GetValidRow(), keep_c = t_1.GetValidCol();
        vr = vr < keep_r ? vr : keep_r;
        vc = vc < keep_c ? vc : keep_c;
        t_1.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 3, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 3, 64), 1));
        TSTORE(gm, t_1);
        t_1.SetValidShape(keep_r, keep_c);
    }
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
}
