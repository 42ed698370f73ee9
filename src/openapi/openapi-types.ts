/** The slice of the OpenAPI 3.0/3.1 object model kennel reads. Everything else passes through untouched. */

export type JsonSchema = Record<string, unknown> | boolean;

export interface ReferenceObject {
  $ref: string;
}

export interface ExampleObject {
  summary?: string;
  description?: string;
  value?: unknown;
}

export interface MediaTypeObject {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, ExampleObject | ReferenceObject>;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  deprecated?: boolean;
  schema?: JsonSchema;
  style?: string;
  explode?: boolean;
  description?: string;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

export interface RequestBodyObject {
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}

export interface HeaderObject {
  required?: boolean;
  schema?: JsonSchema;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject {
  operationId?: string;
  summary?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: (ParameterObject | ReferenceObject)[];
  requestBody?: RequestBodyObject | ReferenceObject;
  responses?: Record<string, ResponseObject | ReferenceObject>;
  security?: SecurityRequirement[];
  [extension: `x-${string}`]: unknown;
}

export interface SecuritySchemeObject {
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  scheme?: string;
  name?: string;
  in?: 'query' | 'header' | 'cookie';
}

export interface ServerObject {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[] }>;
}

export interface OpenApiDocument {
  openapi: string;
  /** Required by OpenAPI, yet missing from many documents: read it through `documentInfo`. */
  info?: { title?: string; version?: string; [extension: string]: unknown };
  servers?: ServerObject[];
  paths?: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, SecuritySchemeObject | ReferenceObject>;
    [section: string]: unknown;
  };
  security?: SecurityRequirement[];
  tags?: { name: string; description?: string }[];
  [extension: string]: unknown;
}
