;; Declares a 2000-page (125 MiB) minimum memory; `_start` does nothing.
;; Must be refused at instantiation under a smaller memory cap.
(module
  (memory (export "memory") 2000)
  (func (export "_start")))
