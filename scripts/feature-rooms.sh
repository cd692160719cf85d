#!/bin/sh
# docs/architecture.md, « How many rooms a feature spans »: for each feature named, the top-level
# rooms under src/ that its files and what they import reach. Another feature reached through its
# index.ts is listed apart, as « (index) name »: the count is the feature's folder and the rest.
# Usage, from the repository root: sh scripts/feature-rooms.sh intake delivery inbox privacy
set -eu

rooms() {
  find "src/features/$1" -name '*.ts' | while read -r file; do
    echo "$file"
    grep -oE "from '\.[^']+'" "$file" | sed -E "s/^from '//; s/'$//" |
      while read -r spec; do realpath -m --relative-to=. "$(dirname "$file")/$spec"; done
  done | awk -F/ -v own="$1" '
    $2 != "features" { print "src/" $2; next }
    $3 == own { print "src/features/" own; next }
    $4 == "index.ts" { print "(index) " $3; next }
    { print "src/features/" $3 }' | sort -u
}

for feature in "$@"; do
  found=$(rooms "$feature")
  count=$(echo "$found" | grep -vc '^(index)' || true)
  echo "$feature: $count rooms: $(echo "$found" | tr '\n' ' ')"
done
