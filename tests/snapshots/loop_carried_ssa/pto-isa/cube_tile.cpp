extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
    // 16384 B of the unified buffer (UB) at 0x0
    using t_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    t_t t(64, 64);
    TASSIGN(t, 0x0);
    // 16384 B of the unified buffer (UB) at 0x4000
    using p_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    p_t p(64, 64);
    TASSIGN(p, 0x4000);
    // 16384 B of the unified buffer (UB) at 0x8000
    using q_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    q_t q(64, 64);
    TASSIGN(q, 0x8000);
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 0, {0, 0}, 64, 64, vr, vc);
        t.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 0, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 0, 64), 1));
        TLOAD(t, gm);
    }
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    p.SetValidShape(t.GetValidRow(), t.GetValidCol());
    TMOV(p, t);
    for (int64_t k = 0; (1) > 0 ? k < (2) : k > (2); k += (1)) {
        pipe_barrier(PIPE_ALL);
        q.SetValidShape(std::min(p.GetValidRow(), t.GetValidRow()), std::min(p.GetValidCol(), t.GetValidCol()));
        TMUL(q, p, t);
        pipe_barrier(PIPE_V);
        p.SetValidShape(q.GetValidRow(), q.GetValidCol());
        TMOV(p, q);
        pipe_barrier(PIPE_ALL);
    }
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 1, {0, 0}, 64, 64, vr, vc);
        const unsigned keep_r = p.GetValidRow(), keep_c = p.GetValidCol();
        vr = vr < keep_r ? vr : keep_r;
        vc = vc < keep_c ? vc : keep_c;
        p.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 1, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 1, 64), 1));
        TSTORE(gm, p);
        p.SetValidShape(keep_r, keep_c);
    }
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
}
