/**
 * The served OpenAPI document as a contract: which operation a request is, and whether an answer is
 * one that operation documents (status, headers, content type, body schema, problem code), checked
 * with ajv; and which (operation, status) pairs the answers reached.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

type Json = Record<string, any>;

/** One answer as the client saw it, and the request that got it. */
export interface Answer {
  method: string;
  /** The request target: path and query string. */
  target: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Answered on the raw socket by server.ts's client-error handler, before any route ran. */
  raw?: boolean;
}

export interface Operation {
  id: string;
  method: string;
  /** The path as the document writes it: /api/v1/scrapes/{id}. */
  path: string;
  pattern: RegExp;
  responses: Record<string, Json>;
}

/**
 * Headers that describe the transfer, not the API: no operation declares them, and every HTTP/1.1
 * server sends them. The API adds no others of its own (no security headers: those are the dashboard's
 * and the /docs page's, see dashboard.routes.ts and apidocs.routes.ts).
 */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

export function createContract(doc: Json) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // A CommonJS module: its function is also its `default` property, which is what the types describe.
  formats.default(ajv);
  // The document's refs name components.schemas; ajv finds them as $defs of a schema it holds.
  const local = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
  ajv.addSchema(local({ $id: 'doc', $defs: doc.components.schemas }));
  // By text: the problem schemas of many responses are alike, and compiling is what takes the time.
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (schema: object) => {
    const text = JSON.stringify(schema);
    if (!compiled.has(text)) compiled.set(text, ajv.compile(local(schema)));
    return compiled.get(text)!;
  };
  const errorsOf = (schema: object, value: unknown) => {
    const validate = validatorOf(schema);
    return validate(value) ? [] : ajv.errorsText(validate.errors, { separator: '; ' }).split('; ');
  };

  const operations: Operation[] = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      id: op.operationId as string,
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`),
      responses: op.responses,
    })),
  );
  const reached = new Map<string, Set<string>>(operations.map((op) => [op.id, new Set()]));
  /** `operationId status code` of every problem answered, for the figure of codes reached. */
  const codesSeen = new Set<string>();

  /**
   * The operations an answer speaks for: the one of its method and path, or, for a method the path
   * does not have (405), every operation of that path, since the document lists the 405 under each.
   */
  function operationsOf(method: string, target: string): Operation[] {
    const ofPath = operations.filter((op) => op.pattern.test(target));
    const exact = ofPath.filter((op) => op.method === method);
    return exact.length > 0 ? exact : ofPath;
  }

  /** What is wrong with one answer by an operation it answers (nothing counted: see `count`). */
  function check(answer: Answer, op: Operation): string[] {
    const issues: string[] = [];
    const documented = op.responses[String(answer.status)];
    if (!documented) return [`${answer.status} is not documented for ${op.id}`];
    const declared: Record<string, Json> = documented.headers ?? {};
    for (const name of Object.keys(answer.headers)) {
      if (!TRANSPORT_HEADERS.has(name) && !declared[name]) issues.push(`header ${name} is not declared`);
    }
    for (const [name, header] of Object.entries(declared)) {
      if (header.required && answer.headers[name] === undefined) issues.push(`required header ${name} is missing`);
    }
    // A 405 answers a method the path lacks: a HEAD twin's entry describes its headers, the GET's its body.
    if (op.method === 'HEAD' && answer.method !== 'HEAD') return issues;
    // An answer to a HEAD has no body, whatever its status (RFC 9110 §9.3.2), a 405 of a POST-only path included.
    if (answer.method === 'HEAD') return answer.body === '' ? issues : [...issues, `a HEAD was answered with a body: ${answer.body.slice(0, 200)}`];
    const content: Record<string, Json> | undefined = documented.content;
    if (!content) return answer.body === '' ? issues : [...issues, `a body was sent where none is documented: ${answer.body.slice(0, 200)}`];
    const type = mediaType(answer.headers['content-type']);
    const media = content[type];
    if (!media) return [...issues, `content type ${type || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [...issues, `the body is not JSON: ${answer.body.slice(0, 200)}`];
    }
    issues.push(...errorsOf(media.schema, body).map((error) => `body: ${error}`));
    const codes: string[] | undefined = media.schema.allOf?.[1]?.properties?.code?.enum;
    const code = (body as { code?: string }).code;
    if (codes && !codes.includes(code!)) issues.push(`code ${code} is not one of ${codes.join(', ')}`);
    return issues;
  }

  /** Counts an answer the server gave as reaching its (operation, status), and its problem code. */
  function count(answer: Answer, op: Operation) {
    if (!op.responses[String(answer.status)]) return;
    reached.get(op.id)!.add(String(answer.status));
    if (mediaType(answer.headers['content-type']) !== 'application/problem+json') return;
    const code = /"code":"([^"]+)"/.exec(answer.body)?.[1];
    if (code) codesSeen.add(`${op.id} ${answer.status} ${code}`);
  }

  /** Every example of a media object (requests, answers, webhooks) that its own schema refuses. */
  function exampleIssues(): string[] {
    const issues: string[] = [];
    const visit = (where: string, content: Record<string, Json> | undefined) => {
      for (const [type, media] of Object.entries(content ?? {})) {
        const values = [
          ...(media.example === undefined ? [] : [['example', media.example]]),
          ...Object.entries(media.examples ?? {}).map(([name, example]) => [name, (example as Json).value]),
        ] as [string, unknown][];
        for (const [name, value] of values) {
          issues.push(...errorsOf(media.schema, value).map((error) => `${where} ${type} example ${name}: ${error}`));
        }
      }
    };
    for (const section of [doc.paths, doc.webhooks ?? {}] as Record<string, Record<string, Json>>[]) {
      for (const [path, item] of Object.entries(section)) {
        for (const [method, op] of Object.entries(item)) {
          visit(`${method.toUpperCase()} ${path} request`, op.requestBody?.content);
          for (const [status, response] of Object.entries(op.responses ?? {})) {
            visit(`${method.toUpperCase()} ${path} ${status}`, (response as Json).content);
          }
        }
      }
    }
    return issues;
  }

  /** The operation of the same path with another method: a HEAD twin's GET, or a GET's HEAD twin. */
  const twin = (op: Operation, method: string) => operations.find((other) => other.path === op.path && other.method === method);
  const byId = (id: string) => operations.find((op) => op.id === id)!;

  /** The problem codes a status of an operation lists (a HEAD twin's are its GET's: it has no bodies to list them in). */
  function codesOf(op: Operation, status: string): string[] {
    const described = op.method === 'HEAD' ? twin(op, 'GET')! : op;
    return described.responses[status]?.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
  }

  /** Documented (operation, status) pairs no answer reached. */
  const unreached = () =>
    operations.flatMap((op) => Object.keys(op.responses).filter((status) => !reached.get(op.id)!.has(status)).map((status) => [op, status] as const));

  /** One line per operation: the statuses reached, those not, and the totals. */
  function coverageTable(): string {
    const width = Math.max(...operations.map((op) => op.id.length));
    const missed = unreached();
    const lines = operations.map((op) => {
      const documented = Object.keys(op.responses);
      const missing = missed.filter(([other]) => other === op).map(([, status]) => status);
      const got = documented.filter((status) => !missing.includes(status));
      const count = `${String(got.length).padStart(2)}/${String(documented.length).padEnd(2)}`;
      return `${op.id.padEnd(width)}  ${count}  ${got.join(' ')}${missing.length ? `   not reached: ${missing.join(' ')}` : ''}`;
    });
    const pairs = operations.reduce((sum, op) => sum + Object.keys(op.responses).length, 0);
    const complete = operations.filter((op) => !missed.some(([other]) => other === op)).length;
    // Codes are counted on the operations with bodies (a HEAD twin's are its GET's); reaching them all is not required.
    const codes = operations
      .filter((op) => op.method !== 'HEAD')
      .flatMap((op) => Object.keys(op.responses).flatMap((status) => codesOf(op, status).map((code) => `${op.id} ${status} ${code}`)));
    return [
      ...lines,
      `operations with every status reached: ${complete}/${operations.length}; (operation, status) pairs reached: ${pairs - missed.length}/${pairs}`,
      `(operation, status, problem code) triples reached, not required: ${codes.filter((c) => codesSeen.has(c)).length}/${codes.length}`,
    ].join('\n');
  }

  return { operations, byId, twin, codesOf, operationsOf, check, count, exampleIssues, unreached, coverageTable };
}

export type Contract = ReturnType<typeof createContract>;
