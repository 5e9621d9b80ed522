# The performance chart: latency per model for Kiln, ONNX Runtime and
# PyTorch, clustered bars on a log scale. bench/bench.py calls it as
#   gnuplot -e "datafile='D'; outfile='O.png'; charttitle='T'; ymin=Y" \
#     bench/chart.gp
# D has a header line "model Kiln ORT PyTorch", then one line per model
# with milliseconds ("?" for a runtime that was WRONG or failed).
set terminal pngcairo size 1000,520 font "sans,10" noenhanced
set output outfile
set title charttitle
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set yrange [ymin:*]
set ylabel "milliseconds per inference"
set grid ytics mytics
set key top left
set xtics nomirror rotate by -20
plot datafile using 2:xtic(1) title columnheader(2) lc rgb "#d95f02", \
     '' using 3 title columnheader(3) lc rgb "#1b9e77", \
     '' using 4 title columnheader(4) lc rgb "#7570b3"
