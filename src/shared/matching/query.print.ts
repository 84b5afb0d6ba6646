/**
 * The canonical text of a query: single spaces, `-` for NOT, no AND, parentheses only where they
 * are needed, lower-case field names, words bare unless the parser would read them otherwise. Terms
 * of one field side by side are printed as a group (`title:(a OR b)`), as a person would write them,
 * which also keeps the text about as short as the one parsed.
 */
import { FIELD_LIKE, FIELD_NAMES, QUERY_LIMITS, type QueryNode, type TextField } from './query.ast.ts';

/** parseQuery(printQuery(node)) equals `node` for every node parseQuery returns. */
export function printQuery(node: QueryNode): string {
  return print(node, false, 0);
}

/**
 * `inField`: inside a field's group, where terms take no prefix. `depth`: the parentheses around
 * this point of the text, so an optional group is left out where it would go past the parser's limit.
 */
function print(node: QueryNode, inField: boolean, depth: number): string {
  switch (node.kind) {
    case 'term':
      return (inField || node.field === null ? '' : `${node.field}:`) + quoted(node.text);
    case 'author':
      return `author:${node.name}`;
    case 'type':
      return `type:${node.value}`;
    case 'not':
      return `-${atom(node.node, inField, depth)}`;
    case 'and':
    case 'or':
      return members(node.kind, node.nodes, inField, depth);
  }
}

/** A node where one term is expected (after "-", or an OR inside an AND): a group unless it is one term. */
function atom(node: QueryNode, inField: boolean, depth: number): string {
  if (node.kind !== 'and' && node.kind !== 'or') return print(node, inField, depth);
  const field = inField ? null : fieldOf(node);
  return `${field ? `${field}:` : ''}(${print(node, inField || field !== null, depth + 1)})`;
}

function members(kind: 'and' | 'or', nodes: QueryNode[], inField: boolean, depth: number): string {
  const separator = kind === 'and' ? ' ' : ' OR ';
  // An AND or OR inside an AND needs parentheses, an AND inside an OR does not: AND binds tighter.
  const member = (node: QueryNode, inGroup: boolean, at: number) =>
    node.kind === 'or' || (kind === 'and' && node.kind === 'and') ? atom(node, inGroup, at) : print(node, inGroup, at);
  const parts: string[] = [];
  for (let i = 0; i < nodes.length; ) {
    const field = inField ? null : fieldOf(nodes[i]!);
    let end = i + 1;
    while (field !== null && end < nodes.length && fieldOf(nodes[end]!) === field) end++;
    const run = nodes.slice(i, end);
    const grouped = field !== null && (run.length > 1 || run[0]!.kind === 'and') && depth < QUERY_LIMITS.depth;
    parts.push(grouped ? `${field}:(${run.map((node) => member(node, true, depth + 1)).join(separator)})` : member(run[0]!, inField, depth));
    i = grouped ? end : i + 1;
  }
  return parts.join(separator);
}

/** The field every term of the node has, when the node has only terms and all have that one field; else null. */
function fieldOf(node: QueryNode): TextField | null {
  switch (node.kind) {
    case 'term':
      return node.field;
    case 'not':
      return fieldOf(node.node);
    case 'and':
    case 'or': {
      const field = fieldOf(node.nodes[0]!);
      return field !== null && node.nodes.every((child) => fieldOf(child) === field) ? field : null;
    }
    default:
      return null;
  }
}

/**
 * A term bare when the parser reads it back as this same word; otherwise in quotes, where a `\` is
 * doubled only where it would be read as an escape (before a quote or a backslash, or last).
 */
function quoted(text: string): string {
  const colon = text.indexOf(':');
  const bare =
    !/[\s()"]/u.test(text) &&
    text !== '' &&
    !text.startsWith('-') &&
    text !== 'AND' &&
    text !== 'OR' &&
    text !== 'NOT' &&
    !(colon > 0 && FIELD_NAMES.has(text.slice(0, colon).toLowerCase())) &&
    !FIELD_LIKE.test(text);
  return bare ? text : `"${text.replace(/\\(?=["\\]|$)/g, '\\\\').replace(/"/g, '\\"')}"`;
}
