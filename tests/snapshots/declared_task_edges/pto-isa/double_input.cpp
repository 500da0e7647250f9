extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
    // 8192 B of the unified buffer (UB) at 0x0
    using band_t = Tile<TileType::Vec, float, 16, 128, BLayout::RowMajor, -1, -1>;
    band_t band(16, 128);
    TASSIGN(band, 0x0);
    // 8192 B of the unified buffer (UB) at 0x2000
    using band_1_t = Tile<TileType::Vec, float, 16, 128, BLayout::RowMajor, -1, -1>;
    band_1_t band_1(16, 128);
    TASSIGN(band_1, 0x2000);
    // 8192 B of the unified buffer (UB) at 0x4000
    using t_t = Tile<TileType::Vec, float, 16, 128, BLayout::RowMajor, -1, -1>;
    t_t t(16, 128);
    TASSIGN(t, 0x4000);
    const int64_t rows = plc_rows(args, 0), cols = plc_cols(args, 0);
    for (int64_t r0 = 0; r0 < rows; r0 += 16) {
        pipe_barrier(PIPE_ALL);
        for (int64_t c0 = 0; c0 < cols; c0 += 128) {
            pipe_barrier(PIPE_ALL);
            {
                unsigned vr = 0, vc = 0;
                plc_window_rc(args, 1, r0, c0, 16, 128, vr, vc);
                band.SetValidShape(vr, vc);
                GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm_rc<float>(args, 1, r0, c0), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 1, 128), 1));
                TLOAD(band, gm);
            }
            {
                unsigned vr = 0, vc = 0;
                plc_window_rc(args, 1, r0, c0, 16, 128, vr, vc);
                band_1.SetValidShape(vr, vc);
                GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm_rc<float>(args, 1, r0, c0), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 1, 128), 1));
                TLOAD(band_1, gm);
            }
            set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
            t.SetValidShape(std::min(band.GetValidRow(), band_1.GetValidRow()), std::min(band.GetValidCol(), band_1.GetValidCol()));
            TADD(t, band, band_1);
            set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
            {
                unsigned vr = 0, vc = 0;
                plc_window_rc(args, 0, r0, c0, 16, 128, vr, vc);
                const unsigned keep_r = t.GetValidRow(), keep_c = t.GetValidCol();
                vr = vr < keep_r ? vr : keep_r;
                vc = vc < keep_c ? vc : keep_c;
                t.SetValidShape(vr, vc);
                GlobalTensor<float, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm(plc_gm_rc<float>(args, 0, r0, c0), Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, 0, 128), 1));
                TSTORE(gm, t);
                t.SetValidShape(keep_r, keep_c);
            }
            pipe_barrier(PIPE_ALL);
        }
        pipe_barrier(PIPE_ALL);
    }
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
}
