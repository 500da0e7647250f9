extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
    // 16384 B of the unified buffer (UB) at 0x0
    using t_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    t_t t(64, 64);
    TASSIGN(t, 0x0);
    // 16384 B of the unified buffer (UB) at 0x4000
    using power_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    power_t power(64, 64);
    TASSIGN(power, 0x4000);
    // 16384 B of the unified buffer (UB) at 0x8000
    using power_1_t = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    power_1_t power_1(64, 64);
    TASSIGN(power_1, 0x8000);
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 0, {0, 0}, 64, 64, vr, vc);
        t.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 0, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 0, 64), 1));
        TLOAD(t, gm);
    }
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    power.SetValidShape(t.GetValidRow(), t.GetValidCol());
    TMOV(power, t);
    for (int64_t k = 0; (1) > 0 ? k < (2) : k > (2); k += (1)) {
        pipe_barrier(PIPE_ALL);
        power_1.SetValidShape(std::min(power.GetValidRow(), t.GetValidRow()), std::min(power.GetValidCol(), t.GetValidCol()));
        TMUL(power_1, power, t);
        pipe_barrier(PIPE_V);
        power.SetValidShape(power_1.GetValidRow(), power_1.GetValidCol());
        TMOV(power, power_1);
        pipe_barrier(PIPE_ALL);
    }
    {
        unsigned vr = 0, vc = 0;
        plc_window(args, 1, {0, 0}, 64, 64, vr, vc);
        const unsigned keep_r = power.GetValidRow(), keep_c = power.GetValidCol();
        vr = vr < keep_r ? vr : keep_r;
        vc = vc < keep_c ? vc : keep_c;
        power.SetValidShape(vr, vc);
        GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm<float>(args, 1, {0, 0}), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 1, 64), 1));
        TSTORE(gm, power);
        power.SetValidShape(keep_r, keep_c);
    }
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
}
