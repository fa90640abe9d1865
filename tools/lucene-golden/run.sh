#!/usr/bin/env bash
# Regenerates the Lucene 8.7 data and golden files of src/analysis and test/analysis/lucene-golden/
# with Debian's liblucene8-java (Apache-2.0; see NOTICE). Needs a JDK; tests do not (the outputs are committed).
#   bash tools/lucene-golden/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
J=/usr/share/java
CP="$(ls $J/lucene-core-8*.jar | head -1):$(ls $J/lucene-analyzers-common-8*.jar | head -1)"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
javac -nowarn -d "$build" -cp "$CP" "$root/tools/lucene-golden/LuceneAnalysisGolden.java"
run() { java -cp "$build:$CP" LuceneAnalysisGolden "$@"; }
g="$root/test/analysis/lucene-golden"
run kstem-data "$root/src/analysis/kstem-data.json"
run kstem "$g/kstem.input.txt" "$g/kstem.golden.tsv"
run tokens uax_url_email "$g/uax-url-email.input.txt" "$g/uax-url-email.golden.ndjson"
run tokens classic "$g/classic.input.txt" "$g/classic.golden.ndjson"
run tokens classic_filter "$g/classic.input.txt" "$g/classic-filter.golden.ndjson"
