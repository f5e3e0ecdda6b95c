/**
 * Turns Tessera's OpenAPI document into TypeScript types: one interface per named schema, and
 * per operation its path parameters, query, body and success answer. Only the JSON Schema the
 * server's routes use is covered; anything else fails loudly rather than becoming `unknown`.
 */
type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
  format?: string;
};

interface Parameter {
  in: 'query' | 'path' | 'header';
  name: string;
  required?: boolean;
  schema: Schema & { default?: unknown };
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

function typeOf(schema: Schema, indent: string): string {
  if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((s) => typeOf(s, indent)).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types
    .map((type) => {
      switch (type) {
        case 'string':
          return schema.format === 'binary' ? 'Uint8Array' : 'string';
        case 'integer':
        case 'number':
          return 'number';
        case 'boolean':
          return 'boolean';
        case 'null':
          return 'null';
        case 'array':
          return `Array<${typeOf(schema.items ?? {}, indent)}>`;
        case 'object':
          return objectType(schema, indent);
        default:
          throw new Error(`unsupported schema: ${JSON.stringify(schema)}`);
      }
    })
    .join(' | ');
}

function objectType(schema: Schema, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const doc = property.description ? `${inner}/** ${property.description.replace(/\*\//g, '*\\/')} */\n` : '';
    return `${doc}${inner}${JSON.stringify(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`;
  });
  const extra = schema.additionalProperties;
  if (extra && extra !== true) lines.push(`${inner}[key: string]: ${typeOf(extra, inner)};`);
  else if (extra === true) lines.push(`${inner}[key: string]: unknown;`);
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

function paramsType(parameters: Parameter[], where: 'query' | 'path' | 'header', indent: string): string {
  const selected = parameters.filter((p) => p.in === where);
  if (selected.length === 0) return 'never';
  const properties = Object.fromEntries(selected.map((p) => [p.name, p.schema]));
  // A parameter with a default may be left out by the caller.
  const required = selected.filter((p) => p.required && p.schema.default === undefined).map((p) => p.name);
  return objectType({ type: 'object', properties, required }, indent);
}

export function generateTypes(document: OpenApiDocument): string {
  const out: string[] = ['// Generated from the server\'s OpenAPI document by `npm run client:generate`. Do not edit.', ''];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(`export type ${name} = ${typeOf(schema, '')};`, '');
  }
  out.push('/** Every operation: "METHOD /path" → what it takes and what it answers on success. */', 'export interface Operations {');
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      const answer = success?.[1].content?.['application/json']?.schema;
      const body = operation.requestBody?.content['application/json']?.schema;
      const parameters = operation.parameters ?? [];
      out.push(
        `  ${JSON.stringify(`${method.toUpperCase()} ${path}`)}: {`,
        `    path: ${paramsType(parameters, 'path', '    ')};`,
        `    query: ${paramsType(parameters, 'query', '    ')};`,
        `    body: ${body ? typeOf(body, '    ') : 'never'};`,
        `    response: ${answer ? typeOf(answer, '    ') : 'void'};`,
        '  };',
      );
    }
  }
  out.push('}', '');
  return out.join('\n');
}
