;; Spins forever in the wasm `start` function, which runs during
;; instantiation, before `_start`: limits must already apply there.
(module
  (memory (export "memory") 1)
  (func $spin (loop $l (br $l)))
  (start $spin)
  (func (export "_start")))
