"""Charts: plans from the data, Vega-Lite specs drawn to SVG, the chart blocks of report bodies."""
