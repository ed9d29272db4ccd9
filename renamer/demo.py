def run_demo(out, keep_dir): return 0
