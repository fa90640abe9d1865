;; LZ4 block encoder with a preset dictionary, for `_source` of the `default` codec (lz4-wasm-encode.ts).
;; The same algorithm as Lz4DictEncoder.encode in lz4-block.ts, step for step — the same hash, the
;; same chains, the same candidates in the same order, the same greedy choice — so it writes the
;; same bytes (a test compares the two on many documents). WebAssembly because the JS encoder was
;; ~30% of a build worker's CPU in a bulk load (~6.5 µs per 245-byte document): here a position's
;; 4 bytes are one load, a match is extended 8 bytes at a time, and nothing is bounds-checked.
;; Build: node tools/build-lz4-wasm.mjs (writes lz4-wasm-bytes.ts).
;;
;; Memory (fixed; lz4-wasm-encode.ts grows it once to $END):
;;   [0, 512 KB)        heads: per hash an i32 pair — [8h] the last window position with that hash
;;                      (−1 none), [8h + 4] the same as the dictionary alone left it (the undo)
;;   [$W, +128 KB + 64) the window: the dictionary's tail, then the block
;;   [$P, +256 KB + 128) prev: per window position, u16, how far back the previous position with
;;                      the same hash is (0 = none or beyond 65535)
;;   [$T, +256 KB)      touched: the heads slots the block changed
;;   [$O, ...)          the encoded block
;; A block is at most 65536 bytes here (MAX_BLOCK in lz4-wasm-encode.ts); larger go to the JS encoder.
(module
  (memory (export "memory") 1)
  (global $W i32 (i32.const 524288))
  (global $P i32 (i32.const 655424))
  (global $T i32 (i32.const 917696))
  (global $O i32 (i32.const 1179840))

  ;; The heads slot (byte offset) of the 4 bytes at window position `p`: twice the hash, times 4.
  (func $slot (param $p i32) (result i32)
    (i32.shl
      (i32.shr_u (i32.mul (i32.load (i32.add (global.get $W) (local.get $p))) (i32.const -1640531535)) (i32.const 16))
      (i32.const 3)))

  ;; Chains window position `p` in front of its hash's list; returns the slot.
  (func $insert (param $p i32) (result i32)
    (local $s i32)
    (local $older i32)
    (local $back i32)
    (local.set $s (call $slot (local.get $p)))
    (local.set $older (i32.load (local.get $s)))
    (local.set $back (i32.sub (local.get $p) (local.get $older)))
    (i32.store16
      (i32.add (global.get $P) (i32.shl (local.get $p) (i32.const 1)))
      (select (local.get $back) (i32.const 0)
        (i32.and (i32.ge_s (local.get $older) (i32.const 0)) (i32.le_s (local.get $back) (i32.const 65535)))))
    (i32.store (local.get $s) (local.get $p))
    (local.get $s))

  ;; init(dictLength): the dictionary is at $W; chains its positions and saves the heads as the undo.
  (func (export "init") (param $dictLength i32)
    (local $p i32)
    (local $s i32)
    (memory.fill (i32.const 0) (i32.const 255) (i32.const 524288))
    (block $done
      (loop $each
        (br_if $done (i32.gt_s (i32.add (local.get $p) (i32.const 4)) (local.get $dictLength)))
        (drop (call $insert (local.get $p)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $each)))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $s) (i32.const 524288)))
        (i32.store offset=4 (local.get $s) (i32.load (local.get $s)))
        (local.set $s (i32.add (local.get $s) (i32.const 8)))
        (br $each))))

  ;; A length's extra bytes (255 each, then the rest); returns the new output address.
  (func $length (param $o i32) (param $rest i32) (result i32)
    (block $done
      (loop $more
        (br_if $done (i32.lt_u (local.get $rest) (i32.const 255)))
        (i32.store8 (local.get $o) (i32.const 255))
        (local.set $o (i32.add (local.get $o) (i32.const 1)))
        (local.set $rest (i32.sub (local.get $rest) (i32.const 255)))
        (br $more)))
    (i32.store8 (local.get $o) (local.get $rest))
    (i32.add (local.get $o) (i32.const 1)))

  ;; One sequence at output address `o` (matchLength 0: the last, literals only); returns the new address.
  (func $sequence (param $o i32) (param $literalsAt i32) (param $literals i32) (param $offset i32) (param $matchLength i32) (result i32)
    (local $m i32)
    (local $token i32)
    (local.set $m (select (i32.const 0) (i32.sub (local.get $matchLength) (i32.const 4)) (i32.eqz (local.get $matchLength))))
    (local.set $token (local.get $o))
    (local.set $o (i32.add (local.get $o) (i32.const 1)))
    (i32.store8 (local.get $token)
      (i32.or
        (i32.shl (select (i32.const 15) (local.get $literals) (i32.ge_u (local.get $literals) (i32.const 15))) (i32.const 4))
        (select (i32.const 15) (local.get $m) (i32.ge_u (local.get $m) (i32.const 15)))))
    (if (i32.ge_u (local.get $literals) (i32.const 15))
      (then (local.set $o (call $length (local.get $o) (i32.sub (local.get $literals) (i32.const 15))))))
    (memory.copy (local.get $o) (i32.add (global.get $W) (local.get $literalsAt)) (local.get $literals))
    (local.set $o (i32.add (local.get $o) (local.get $literals)))
    (if (i32.eqz (local.get $matchLength)) (then (return (local.get $o))))
    (i32.store16 (local.get $o) (local.get $offset))
    (local.set $o (i32.add (local.get $o) (i32.const 2)))
    (if (i32.ge_u (local.get $m) (i32.const 15))
      (then (local.set $o (call $length (local.get $o) (i32.sub (local.get $m) (i32.const 15))))))
    (local.get $o))

  ;; How many bytes from window positions `cand` and `p` on are equal, stopping at `limit` (p + len < limit).
  (func $common (param $cand i32) (param $p i32) (param $limit i32) (result i32)
    (local $len i32)
    (local $x i64)
    (block $done
      (loop $words
        (br_if $done (i32.gt_s (i32.add (i32.add (local.get $p) (local.get $len)) (i32.const 8)) (local.get $limit)))
        (local.set $x
          (i64.xor
            (i64.load (i32.add (global.get $W) (i32.add (local.get $cand) (local.get $len))))
            (i64.load (i32.add (global.get $W) (i32.add (local.get $p) (local.get $len))))))
        (if (i64.ne (local.get $x) (i64.const 0))
          (then (return (i32.add (local.get $len) (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $x)) (i64.const 3)))))))
        (local.set $len (i32.add (local.get $len) (i32.const 8)))
        (br $words)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_s (i32.add (local.get $p) (local.get $len)) (local.get $limit)))
        (br_if $done
          (i32.ne
            (i32.load8_u (i32.add (global.get $W) (i32.add (local.get $cand) (local.get $len))))
            (i32.load8_u (i32.add (global.get $W) (i32.add (local.get $p) (local.get $len))))))
        (local.set $len (i32.add (local.get $len) (i32.const 1)))
        (br $bytes)))
    (local.get $len))

  ;; encode(base, n): the block is at window positions [base, base + n) (base = the dictionary's
  ;; length); writes its LZ4 block at $O and returns the block's length. Leaves the heads as init did.
  (func (export "encode") (param $base i32) (param $n i32) (result i32)
    (local $end i32)
    (local $matchLimit i32)
    (local $lastStart i32)
    (local $o i32)
    (local $anchor i32)
    (local $p i32)
    (local $q i32)
    (local $next i32)
    (local $bestLength i32)
    (local $bestFrom i32)
    (local $cand i32)
    (local $depth i32)
    (local $len i32)
    (local $back i32)
    (local $t i32)
    (local $s i32)
    (local $older i32)
    (local.set $end (i32.add (local.get $base) (local.get $n)))
    (local.set $matchLimit (i32.sub (local.get $end) (i32.const 5)))
    (local.set $lastStart (i32.sub (local.get $end) (i32.const 12)))
    (local.set $o (global.get $O))
    (local.set $anchor (local.get $base))
    (local.set $p (local.get $base))
    (local.set $t (global.get $T))
    (block $blockDone
      (loop $position
        (br_if $blockDone (i32.gt_s (local.get $p) (local.get $lastStart)))
        ;; The longest match among the chain's first 16 candidates within reach (the first of equals).
        (local.set $bestLength (i32.const 3))
        (local.set $bestFrom (i32.const -1))
        (local.set $s
          (i32.shl
            (i32.shr_u (i32.mul (i32.load (i32.add (global.get $W) (local.get $p))) (i32.const -1640531535)) (i32.const 16))
            (i32.const 3)))
        (local.set $older (i32.load (local.get $s)))
        (local.set $cand (local.get $older))
        (local.set $depth (i32.const 0))
        (block $chainDone
          (loop $chain
            (br_if $chainDone (i32.ge_s (local.get $depth) (i32.const 16)))
            (br_if $chainDone (i32.lt_s (local.get $cand) (i32.const 0)))
            (br_if $chainDone (i32.gt_s (i32.sub (local.get $p) (local.get $cand)) (i32.const 65535)))
            (if (i32.eq
                  (i32.load8_u (i32.add (global.get $W) (i32.add (local.get $cand) (local.get $bestLength))))
                  (i32.load8_u (i32.add (global.get $W) (i32.add (local.get $p) (local.get $bestLength)))))
              (then
                (local.set $len (call $common (local.get $cand) (local.get $p) (local.get $matchLimit)))
                (if (i32.gt_s (local.get $len) (local.get $bestLength))
                  (then
                    (local.set $bestLength (local.get $len))
                    (local.set $bestFrom (local.get $cand))
                    (br_if $chainDone (i32.ge_s (i32.add (local.get $p) (local.get $len)) (local.get $matchLimit)))))))
            (local.set $back (i32.load16_u (i32.add (global.get $P) (i32.shl (local.get $cand) (i32.const 1)))))
            (local.set $cand (select (i32.const -1) (i32.sub (local.get $cand) (local.get $back)) (i32.eqz (local.get $back))))
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (br $chain)))
        ;; $insert of p, whose slot is $s already (inlined: this runs per position)
        (local.set $back (i32.sub (local.get $p) (local.get $older)))
        (i32.store16
          (i32.add (global.get $P) (i32.shl (local.get $p) (i32.const 1)))
          (select (local.get $back) (i32.const 0)
            (i32.and (i32.ge_s (local.get $older) (i32.const 0)) (i32.le_s (local.get $back) (i32.const 65535)))))
        (i32.store (local.get $s) (local.get $p))
        (i32.store (local.get $t) (local.get $s))
        (local.set $t (i32.add (local.get $t) (i32.const 4)))
        (if (i32.lt_s (local.get $bestFrom) (i32.const 0))
          (then
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $position)))
        (local.set $o (call $sequence (local.get $o) (local.get $anchor) (i32.sub (local.get $p) (local.get $anchor))
          (i32.sub (local.get $p) (local.get $bestFrom)) (local.get $bestLength)))
        (local.set $next (i32.add (local.get $p) (local.get $bestLength)))
        (local.set $q (i32.add (local.get $p) (i32.const 1)))
        (block $done
          (loop $inside
            (br_if $done (i32.ge_s (local.get $q) (local.get $next)))
            (br_if $done (i32.gt_s (local.get $q) (local.get $lastStart)))
            ;; $insert of q, inlined
            (local.set $s
              (i32.shl
                (i32.shr_u (i32.mul (i32.load (i32.add (global.get $W) (local.get $q))) (i32.const -1640531535)) (i32.const 16))
                (i32.const 3)))
            (local.set $older (i32.load (local.get $s)))
            (local.set $back (i32.sub (local.get $q) (local.get $older)))
            (i32.store16
              (i32.add (global.get $P) (i32.shl (local.get $q) (i32.const 1)))
              (select (local.get $back) (i32.const 0)
                (i32.and (i32.ge_s (local.get $older) (i32.const 0)) (i32.le_s (local.get $back) (i32.const 65535)))))
            (i32.store (local.get $s) (local.get $q))
            (i32.store (local.get $t) (local.get $s))
            (local.set $t (i32.add (local.get $t) (i32.const 4)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $inside)))
        (local.set $p (local.get $next))
        (local.set $anchor (local.get $p))
        (br $position)))
    (local.set $o (call $sequence (local.get $o) (local.get $anchor) (i32.sub (local.get $end) (local.get $anchor)) (i32.const 0) (i32.const 0)))
    ;; Undo the block's chain entries: the next block sees the dictionary alone.
    (block $done
      (loop $undo
        (br_if $done (i32.le_u (local.get $t) (global.get $T)))
        (local.set $t (i32.sub (local.get $t) (i32.const 4)))
        (local.set $s (i32.load (local.get $t)))
        (i32.store (local.get $s) (i32.load offset=4 (local.get $s)))
        (br $undo)))
    (i32.sub (local.get $o) (global.get $O))))
