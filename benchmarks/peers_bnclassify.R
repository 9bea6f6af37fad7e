#!/usr/bin/env Rscript
# Timing runner for benchmarks/peers.py: fits and predicts bnclassify learners
# on one categorical CSV and prints one JSON line per learner.
#
# Usage: Rscript peers_bnclassify.R <data.csv> <class_column> <algos> <repeats>
#                                     [<min_seconds>]
#   algos        comma-separated: nb, tan_cl, aode, kdb, bsej, fssj
#   repeats      fits (and predictions) per learner; the best time is reported
#   min_seconds  each timed fit is a loop of fits lasting at least this long,
#                its time divided by their number (default 0: one fit; a fit
#                of a few ms is below proc.time()'s 1 ms resolution)
#
# fit_seconds: structure + parameters (lp with smooth = 1), as bnc() does;
# fit_cpu_seconds: the same fit's CPU time (user + system) of this process.
# predict_seconds: predict(model, data, prob = TRUE) on the same rows.
# Wrapper learners (kdb, bsej, fssj) use k = 5 folds, epsilon = 0.01, kdbk = 2.
# Reading the CSV and converting columns to factors are not timed.

args <- commandArgs(trailingOnly = TRUE)
csv_path <- args[[1]]
class_name <- args[[2]]
algos <- strsplit(args[[3]], ",")[[1]]
repeats <- as.integer(args[[4]])
min_seconds <- if (length(args) >= 5) as.numeric(args[[5]]) else 0
suppressPackageStartupMessages(library(bnclassify))
raw <- utils::read.csv(csv_path, colClasses = "character", check.names = FALSE)
data <- as.data.frame(lapply(raw, factor), check.names = FALSE)
dag_args <- list(
  nb = NULL, aode = NULL, tan_cl = list(score = "loglik"),
  kdb = list(k = 5, kdbk = 2, epsilon = 0.01, smooth = 1),
  bsej = list(k = 5, epsilon = 0.01, smooth = 1),
  fssj = list(k = 5, epsilon = 0.01, smooth = 1)
)
for (algo in algos) {
  fit_best <- Inf
  fit_cpu_best <- Inf
  pred_best <- Inf
  for (i in seq_len(repeats)) {
    set.seed(0)
    n_fits <- 0
    t0 <- proc.time()
    repeat {
      model <- bnc(algo, class_name, data, smooth = 1, dag_args = dag_args[[algo]])
      n_fits <- n_fits + 1
      t1 <- proc.time()
      if (t1[["elapsed"]] - t0[["elapsed"]] >= min_seconds) break
    }
    fit_best <- min(fit_best, (t1[["elapsed"]] - t0[["elapsed"]]) / n_fits)
    # CPU seconds too: on a shared machine elapsed time includes waiting.
    fit_cpu_best <- min(fit_cpu_best, ((t1[["user.self"]] + t1[["sys.self"]]) -
                          (t0[["user.self"]] + t0[["sys.self"]])) / n_fits)
    t0 <- proc.time()[["elapsed"]]
    p <- predict(model, data, prob = TRUE)
    pred_best <- min(pred_best, proc.time()[["elapsed"]] - t0)
  }
  cat(sprintf(paste0("{\"algo\": \"%s\", \"fit_seconds\": %.6g, ",
                     "\"predict_seconds\": %.6g, \"fit_cpu_seconds\": %.6g}\n"),
              algo, fit_best, pred_best, fit_cpu_best))
}
