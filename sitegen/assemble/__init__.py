"""Stage 4, build: which pages changed, rendering in processes, writing the output whole, the output guard."""
