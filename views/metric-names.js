// The -m syntax's list of measure names, split as the engine splits it
// (measures.grammar.split_names): shared by the settings and the measure chooser.

/** Metric names in the -m syntax: commas (or spaces) separate, except inside parameters
 * (utility(a=2,b=-1)); the engine (measures.grammar.split_names) reads the field the same way. */
export function splitMetrics(text) {
  const names = [];
  let current = "";
  let depth = 0;
  for (const char of String(text)) {
    if (char === "(" || char === "[") depth++;
    else if ((char === ")" || char === "]") && depth) depth--;
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      names.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  names.push(current);
  return names.filter(Boolean);
}
