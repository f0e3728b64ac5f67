"""The study tool's parts: spec (the sweep file), runs (one simulator run and its figures), db
(the SQLite results), sweep (the local runner), slurm (the job array), plot (figures and the
Markdown summary), compare (two runs side by side)."""
