;; LZ4 block decoder with a preset dictionary (see lz4-block.ts for the format), for the fetch of
;; stored `_source` (lz4-wasm.ts). WebAssembly because a JS byte loop costs ~1.5 ns a byte, while
;; here literals and matches move 8 bytes at a time: ~10× less for a short document.
;;
;; decode(src, srcEnd, dictStart, dictEnd, dst, dstEnd) decodes the block in memory [src, srcEnd)
;; into [dst, dstEnd); a match reaching before `dst` continues into the dictionary's tail
;; [dictStart, dictEnd). Returns the number of bytes decoded, or -1 when the block is corrupt (a
;; length or an offset out of range, or not exactly dstEnd − dst bytes). Copies run 8 bytes at a
;; time, short ones as fixed 16- and 24-byte copies, so they may write up to 24 bytes past dstEnd
;; and read up to 24 past srcEnd / dictEnd: the caller leaves 32 bytes of slack after each region.
;; Build: node tools/build-lz4-wasm.mjs (writes lz4-wasm-bytes.ts).
(module
  (memory (export "memory") 1)

  ;; Copies [from, from + n) to [to, to + n), 8 bytes at a time (regions at least 8 apart, or to < from).
  (func $wildcopy (param $to i32) (param $from i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $to) (local.get $n)))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $to) (local.get $end)))
        (i64.store (local.get $to) (i64.load (local.get $from)))
        (local.set $to (i32.add (local.get $to) (i32.const 8)))
        (local.set $from (i32.add (local.get $from) (i32.const 8)))
        (br $copy))))

  ;; A match of `n` bytes whose source starts `offset` bytes back: overlapping when offset < 8, so
  ;; byte by byte (it repeats its first `offset` bytes, as the format means).
  (func $match (param $to i32) (param $offset i32) (param $n i32)
    (local $from i32)
    (local $end i32)
    (if (i32.ge_u (local.get $offset) (i32.const 8))
      (then
        (call $wildcopy (local.get $to) (i32.sub (local.get $to) (local.get $offset)) (local.get $n))
        (return)))
    (local.set $from (i32.sub (local.get $to) (local.get $offset)))
    (local.set $end (i32.add (local.get $to) (local.get $n)))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $to) (local.get $end)))
        (i32.store8 (local.get $to) (i32.load8_u (local.get $from)))
        (local.set $to (i32.add (local.get $to) (i32.const 1)))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $copy))))

  (func (export "decode") (param $s i32) (param $srcEnd i32) (param $dictStart i32) (param $dictEnd i32) (param $dst i32) (param $dstEnd i32) (result i32)
    (local $d i32)
    (local $token i32)
    (local $lit i32)
    (local $b i32)
    (local $offset i32)
    (local $n i32)
    (local $back i32)
    (local $from i32)
    (local $inDict i32)
    (local.set $d (local.get $dst))
    (block $fail
      (block $end
        (loop $sequence
          (br_if $fail (i32.ge_u (local.get $s) (local.get $srcEnd)))
          (local.set $token (i32.load8_u (local.get $s)))
          (local.set $s (i32.add (local.get $s) (i32.const 1)))
          ;; literals: up to 14 in a fixed 16-byte copy (no loop, no branch to mispredict)
          (local.set $lit (i32.shr_u (local.get $token) (i32.const 4)))
          (if (i32.eq (local.get $lit) (i32.const 15))
            (then
              (loop $more
                (br_if $fail (i32.ge_u (local.get $s) (local.get $srcEnd)))
                (local.set $b (i32.load8_u (local.get $s)))
                (local.set $s (i32.add (local.get $s) (i32.const 1)))
                (local.set $lit (i32.add (local.get $lit) (local.get $b)))
                (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
          (br_if $fail (i32.gt_u (local.get $lit) (i32.sub (local.get $srcEnd) (local.get $s))))
          (br_if $fail (i32.gt_u (local.get $lit) (i32.sub (local.get $dstEnd) (local.get $d))))
          (if (i32.lt_u (local.get $lit) (i32.const 15))
            (then
              (i64.store (local.get $d) (i64.load (local.get $s)))
              (i64.store offset=8 (local.get $d) (i64.load offset=8 (local.get $s))))
            (else (call $wildcopy (local.get $d) (local.get $s) (local.get $lit))))
          (local.set $d (i32.add (local.get $d) (local.get $lit)))
          (local.set $s (i32.add (local.get $s) (local.get $lit)))
          ;; the last sequence is literals only
          (br_if $end (i32.eq (local.get $s) (local.get $srcEnd)))
          (br_if $fail (i32.gt_u (i32.add (local.get $s) (i32.const 2)) (local.get $srcEnd)))
          (local.set $offset (i32.load16_u (local.get $s)))
          (local.set $s (i32.add (local.get $s) (i32.const 2)))
          (local.set $n (i32.add (i32.and (local.get $token) (i32.const 15)) (i32.const 4)))
          (if (i32.eq (local.get $n) (i32.const 19))
            (then
              (loop $more
                (br_if $fail (i32.ge_u (local.get $s) (local.get $srcEnd)))
                (local.set $b (i32.load8_u (local.get $s)))
                (local.set $s (i32.add (local.get $s) (i32.const 1)))
                (local.set $n (i32.add (local.get $n) (local.get $b)))
                (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
          (br_if $fail (i32.eqz (local.get $offset)))
          (br_if $fail (i32.gt_u (local.get $n) (i32.sub (local.get $dstEnd) (local.get $d))))
          ;; $back > 0: the match starts that many bytes before the output, in the dictionary's tail
          (local.set $back (i32.sub (local.get $offset) (i32.sub (local.get $d) (local.get $dst))))
          (br_if $fail (i32.gt_s (local.get $back) (i32.sub (local.get $dictEnd) (local.get $dictStart))))
          (local.set $from
            (select (i32.sub (local.get $dictEnd) (local.get $back)) (i32.sub (local.get $d) (local.get $offset)) (i32.gt_s (local.get $back) (i32.const 0))))
          ;; The common match: short, in one region, not overlapping by less than 8: a fixed 24-byte
          ;; copy, the source chosen by `select` above rather than by a branch.
          (if (i32.and
                (i32.and (i32.lt_u (local.get $n) (i32.const 19)) (i32.ge_u (local.get $offset) (i32.const 8)))
                (i32.or (i32.le_s (local.get $back) (i32.const 0)) (i32.ge_s (local.get $back) (local.get $n))))
            (then
              (i64.store (local.get $d) (i64.load (local.get $from)))
              (i64.store offset=8 (local.get $d) (i64.load offset=8 (local.get $from)))
              (i64.store offset=16 (local.get $d) (i64.load offset=16 (local.get $from)))
              (local.set $d (i32.add (local.get $d) (local.get $n)))
              (br $sequence)))
          (if (i32.gt_s (local.get $back) (i32.const 0))
            (then
              (local.set $inDict (select (local.get $n) (local.get $back) (i32.lt_u (local.get $n) (local.get $back))))
              (call $wildcopy (local.get $d) (local.get $from) (local.get $inDict))
              (local.set $d (i32.add (local.get $d) (local.get $inDict)))
              (local.set $n (i32.sub (local.get $n) (local.get $inDict)))))
          (call $match (local.get $d) (local.get $offset) (local.get $n))
          (local.set $d (i32.add (local.get $d) (local.get $n)))
          (br $sequence)))
      (br_if $fail (i32.ne (local.get $d) (local.get $dstEnd)))
      (return (i32.sub (local.get $d) (local.get $dst))))
    (i32.const -1)))
