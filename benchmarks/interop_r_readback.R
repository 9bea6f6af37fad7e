#!/usr/bin/env Rscript
# The R side of interop_r_readback.py: bnlearn reads augnb's exported
# networks, and the class posterior of each row is computed here from the
# bn.fit object bnlearn built (not from anything augnb computed).
#
# Usage: Rscript interop_r_readback.R <jobs.csv>
#   jobs.csv  columns: reader (read.bif or read.net), network (the file),
#             rows (a CSV of the rows: one column per node, named as the
#             node, holding its state's name; every node observed),
#             class (the class node), out (the posteriors CSV to write)
#
# For a row with every node observed, P(c, x) is the product of the prior
# of c and each node's CPT entry at its state given c and its parents'
# states; the posterior is P(c, x) normalised over the classes (summed in
# log space, the largest term factored out). The posteriors are written with
# 17 significant digits, one column per class state.

suppressPackageStartupMessages(library(bnlearn))

args <- commandArgs(trailingOnly = TRUE)
jobs <- utils::read.csv(args[[1]], colClasses = "character")

entries <- function(prob, rows, node) {
  # The CPT entry of every row: one index column per dimension of the
  # table, matched by the dimension's variable name.
  dn <- dimnames(prob)
  vars <- names(dn)
  if (is.null(vars)) vars <- node
  idx <- matrix(0L, nrow(rows), length(vars))
  for (j in seq_along(vars)) {
    idx[, j] <- match(rows[[vars[[j]]]], dn[[j]])
    if (anyNA(idx[, j])) {
      stop(sprintf("node %s: a state of %s is not in the table", node, vars[[j]]))
    }
  }
  as.vector(prob[idx])
}

for (i in seq_len(nrow(jobs))) {
  job <- jobs[i, ]
  fit <- switch(job$reader,
    read.bif = read.bif(job$network),
    read.net = read.net(job$network),
    stop(sprintf("unknown reader %s", job$reader))
  )
  rows <- utils::read.csv(job$rows, colClasses = "character", check.names = FALSE)
  classes <- dimnames(fit[[job$class]]$prob)[[1]]
  logp <- matrix(0, nrow(rows), length(classes))
  for (k in seq_along(classes)) {
    rows[[job$class]] <- classes[[k]]
    for (node in nodes(fit)) {
      logp[, k] <- logp[, k] + log(entries(fit[[node]]$prob, rows, node))
    }
  }
  joint <- exp(logp - apply(logp, 1, max))
  post <- joint / rowSums(joint)
  text <- matrix(sprintf("%.17g", post), nrow(post))
  colnames(text) <- classes
  utils::write.csv(text, job$out, row.names = FALSE, quote = FALSE)
}
cat(sprintf("bnlearn %s, %s\n", as.character(packageVersion("bnlearn")),
            R.version.string))
