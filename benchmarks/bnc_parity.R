#!/usr/bin/env Rscript
# bnclassify side of benchmarks/bnclassify_parity.py: runs one bnclassify
# learner on given outer folds AND given inner folds, so both libraries see
# exactly the same training sets and wrapper searches the same internal folds.
#
# Usage:
#   Rscript benchmarks/bnc_parity.R <data.csv> <folds.csv> <class> <algo> <out_dir> [seed]
#
#   data.csv   every column categorical text; missing values already a level
#   folds.csv  column `outer` (outer fold id of each row, 0-based) and one
#              column `inner_<k>` per outer fold k: the inner fold id of each
#              row of fold k's training set (NA for its test rows)
#   algo       nb | tan_cl_loglik | tan_cl_aic | tan_cl_bic | fssj | bsej |
#              tan_hc | tan_hcsp | kdb | aode | awnb | manb | wanbia
#   out_dir    receives <algo>_fold<k>.csv: the class posterior of every test
#              row (columns = class levels)
#
# Wrapper settings: smooth = 1, epsilon = BNC_EPSILON (default 0.01),
# kdbk = BNC_KDBK (default 2). Parameters: Bayesian estimates, smooth = 1.
# The inner folds are imposed by replacing bnclassify's internal
# partition_dataset() with one that returns the given fold of each row.
#
# Weighted naive Bayes (nb structure): awnb = lp(awnb_trees = 10,
# awnb_bootstrap = 0.5), manb = lp(manb_prior = 0.5), wanbia = lp(wanbia = TRUE).
#
# Prints one JSON line per outer fold:
#   {"algo", "fold", "accuracy", "fit_seconds", "arcs", "features", "weights"}
# weights: the feature weights (awnb, wanbia) or arc posteriors (manb) by
# feature name; empty for the other learners.
# accuracy: predictions are the most probable class with ties to the first
# level (R's max.col(ties.method = "first")), the rule augnb uses, so that
# random tie breaking in prediction is not counted as a difference.

invisible(Sys.setlocale("LC_COLLATE", "C"))
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 5) {
  stop("usage: Rscript bnc_parity.R <data.csv> <folds.csv> <class> <algo> <out_dir> [seed]")
}
csv_path <- args[[1]]
folds_path <- args[[2]]
class_name <- args[[3]]
algo <- args[[4]]
out_dir <- args[[5]]
seed <- if (length(args) >= 6) as.integer(args[[6]]) else 0L
epsilon <- as.numeric(Sys.getenv("BNC_EPSILON", "0.01"))
kdbk <- as.integer(Sys.getenv("BNC_KDBK", "2"))
smooth <- 1

suppressPackageStartupMessages({
  library(bnclassify)
  library(jsonlite)
})

raw <- utils::read.csv(csv_path, colClasses = "character", check.names = FALSE,
                       na.strings = character(), stringsAsFactors = FALSE)
data <- as.data.frame(lapply(raw, function(x) factor(x, levels = sort(unique(x)))),
                      check.names = FALSE)
folds <- utils::read.csv(folds_path)
stopifnot(nrow(folds) == nrow(data))

# The inner folds of the current training set, read by partition_dataset().
.parity <- new.env()
given_partition <- function(dataset, class, k) {
  ids <- .parity$inner
  stopifnot(length(ids) == nrow(dataset))
  unname(split(seq_len(nrow(dataset)), ids))
}
utils::assignInNamespace("partition_dataset", given_partition, ns = "bnclassify")

learn <- function(train) {
  wrap <- list(k = 5, epsilon = epsilon, smooth = smooth)
  switch(algo,
    nb = bnc("nb", class_name, train, smooth = smooth),
    aode = bnc("aode", class_name, train, smooth = smooth),
    tan_cl_loglik = bnc("tan_cl", class_name, train, smooth = smooth,
                        dag_args = list(score = "loglik")),
    tan_cl_aic = bnc("tan_cl", class_name, train, smooth = smooth,
                     dag_args = list(score = "aic")),
    tan_cl_bic = bnc("tan_cl", class_name, train, smooth = smooth,
                     dag_args = list(score = "bic")),
    fssj = bnc("fssj", class_name, train, smooth = smooth, dag_args = wrap),
    bsej = bnc("bsej", class_name, train, smooth = smooth, dag_args = wrap),
    tan_hc = bnc("tan_hc", class_name, train, smooth = smooth, dag_args = wrap),
    tan_hcsp = bnc("tan_hcsp", class_name, train, smooth = smooth, dag_args = wrap),
    kdb = bnc("kdb", class_name, train, smooth = smooth,
              dag_args = c(wrap, list(kdbk = kdbk))),
    awnb = bnc("nb", class_name, train, smooth = smooth, awnb_trees = 10,
               awnb_bootstrap = 0.5),
    manb = bnc("nb", class_name, train, smooth = smooth, manb_prior = 0.5),
    wanbia = bnc("nb", class_name, train, smooth = smooth, wanbia = TRUE),
    stop("unknown algo ", algo)
  )
}

# Feature arcs "parent->child" of a fitted bnc_dag (class arcs left out).
feature_arcs <- function(model) {
  if (inherits(model, "bnc_aode")) return(character())
  fams <- families(model)
  out <- character()
  for (f in features(model)) {
    parents <- setdiff(fams[[f]][-1], class_name)
    if (length(parents)) out <- c(out, paste0(parents, "->", f))
  }
  sort(out)
}

dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
set.seed(seed)
for (k in sort(unique(folds$outer))) {
  test_rows <- which(folds$outer == k)
  train_rows <- which(folds$outer != k)
  inner <- folds[[paste0("inner_", k)]][train_rows]
  stopifnot(!anyNA(inner))
  .parity$inner <- inner
  train <- data[train_rows, , drop = FALSE]
  test <- data[test_rows, , drop = FALSE]
  t0 <- proc.time()[["elapsed"]]
  model <- learn(train)
  fit_seconds <- proc.time()[["elapsed"]] - t0
  post <- predict(model, test, prob = TRUE)
  pred <- colnames(post)[max.col(post, ties.method = "first")]
  accuracy <- mean(pred == as.character(test[[class_name]]))
  utils::write.csv(post, file.path(out_dir, sprintf("%s_fold%d.csv", algo, k)),
                   row.names = FALSE)
  feats <- if (inherits(model, "bnc_aode")) character() else sort(features(model))
  weights <- if (!is.null(model$.weights)) model$.weights else model$.manb
  weights <- if (is.null(weights)) setNames(list(), character()) else as.list(weights)
  cat(toJSON(list(algo = algo, fold = k, accuracy = accuracy,
                  fit_seconds = fit_seconds, arcs = I(feature_arcs(model)),
                  features = I(feats), weights = weights),
              auto_unbox = TRUE, digits = NA), "\n")
}
