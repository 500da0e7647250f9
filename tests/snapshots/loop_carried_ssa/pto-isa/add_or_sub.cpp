extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
    const bool subtract = plc_scalar<bool>(args, 3);
    // 16384 B of the unified buffer (UB) at 0x0
    using ta_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    ta_t ta(64, 64);
    TASSIGN(ta, 0x0);
    // 16384 B of the unified buffer (UB) at 0x4000
    using tb_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    tb_t tb(64, 64);
    TASSIGN(tb, 0x4000);
    // 16384 B of the unified buffer (UB) at 0x8000
    using r_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    r_t r(64, 64);
    TASSIGN(r, 0x8000);
    // 16384 B of the unified buffer (UB) at 0xc000
    using y_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    y_t y(64, 64);
    TASSIGN(y, 0xc000);
    // 16384 B of the unified buffer (UB) at 0xc000
    using y_1_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    y_1_t y_1(64, 64);
    TASSIGN(y_1, 0xc000);
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 0, {0, 0}, 64, 64, vr, vc);
        ta.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 0, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 0, 64), 1));
        TLOAD(ta, gm);
    }
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 1, {0, 0}, 64, 64, vr, vc);
        tb.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 1, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 1, 64), 1));
        TLOAD(tb, gm);
    }
    if (subtract) {
        pipe_barrier(PIPE_ALL);
        y.SetValidShape(std::min(ta.GetValidRow(), tb.GetValidRow()), std::min(ta.GetValidCol(), tb.GetValidCol()));
        TSUB(y, ta, tb);
        pipe_barrier(PIPE_V);
        r.SetValidShape(y.GetValidRow(), y.GetValidCol());
        TMOV(r, y);
        pipe_barrier(PIPE_ALL);
    }
    else {
        pipe_barrier(PIPE_ALL);
        y_1.SetValidShape(std::min(ta.GetValidRow(), tb.GetValidRow()), std::min(ta.GetValidCol(), tb.GetValidCol()));
        TADD(y_1, ta, tb);
        pipe_barrier(PIPE_V);
        r.SetValidShape(y_1.GetValidRow(), y_1.GetValidCol());
        TMOV(r, y_1);
        pipe_barrier(PIPE_ALL);
    }
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 2, {0, 0}, 64, 64, vr, vc);
        const unsigned keep_r = r.GetValidRow(), keep_c = r.GetValidCol();
        vr = vr < keep_r ? vr : keep_r;
        vc = vc < keep_c ? vc : keep_c;
        r.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 2, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 2, 64), 1));
        TSTORE(gm, r);
        r.SetValidShape(keep_r, keep_c);
    }
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
}
