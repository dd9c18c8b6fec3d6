/**
 * Error messages as real libraries and services produce them, full of things a model must never see.
 * `secrets` lists exact fragments that must not survive redaction: checked exactly, case-insensitively,
 * with whitespace removed and as letters and digits only (see leak-check.ts).
 *
 * Every credential here is fake. Provider-format keys are assembled from parts so that secret scanners
 * (GitHub push protection and the like) do not mistake this file for a leak.
 */

import { AZURE_CLIENT_SECRET_MESSAGES } from './azure-client-secrets.js';
import { CHINESE_NAME_AND_PHONE_MESSAGES } from './chinese-names-and-phones.js';
import { NPM_AUTH_MESSAGES } from './npm-auth-lines.js';
import { ORACLE_CREDENTIAL_MESSAGES } from './oracle-credentials.js';
import { SHORT_SELECT_MESSAGES } from './short-selects.js';

/** The classes of the redaction issue: what kind of thing leaks. */
export type HostileCategory = 'credential' | 'encoded' | 'database' | 'personal' | 'internal';

export interface HostileErrorMessage {
  readonly category: HostileCategory;
  readonly name: string;
  readonly message: string;
  readonly secrets: readonly string[];
}

const join = (...parts: string[]): string => parts.join('');

const STRIPE_LIVE_KEY = join('sk_', 'live_', '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HKk1Fh0DOSbCoVMdfMbn7hzVjQ');
const STRIPE_RESTRICTED_KEY = join('rk_', 'live_', '51HqLyjWDarjtT1zdRestrictedKeyQ7vX');
const OPENAI_PROJECT_KEY = join('sk-', 'proj-', 'Xy9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sTuV_wX-yZ');
const OPENAI_LEGACY_KEY = join('sk-', 'T3BlbkFJ', 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRs');
const ANTHROPIC_KEY = join('sk-', 'ant-', 'api03-', 'Zq8Yw7Xv6Ut5Sr4Qp3On2Ml1Kj0Ih9Gf8Ed7Cb6Aa-AbCdEfGh');
const GITHUB_TOKEN = join('ghp', '_', '1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ');
const GITHUB_PAT = join(
  'github',
  '_pat_',
  '11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPq',
);
const SLACK_BOT_TOKEN = join('xox', 'b-', '2114889102-4190011228-AbCdEfGhIjKlMnOpQrStUvWx');
const GOOGLE_API_KEY = join('AI', 'za', 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY');
const AWS_ACCESS_KEY_ID = join('AKIA', 'IOSFODNN7EXAMPLE');
const AWS_TEMP_KEY_ID = join('ASIA', 'Y34FZKBOKMUTVV7A');
const AWS_SECRET_ACCESS_KEY = join('wJalrXUtnFEMI', '/K7MDENG/bPxRfiCYEXAMPLEKEY');
const JWT = join(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.eyJzdWIiOiJ1c3JfODgyMSIsImVtYWlsIjoiamFuZUBhY21lLmNvbSIsImV4cCI6MTcwMDAwMDAwMH0',
  '.Qm9ndXNTaWduYXR1cmVGb3JUZXN0c09ubHk',
);
const PEM_BODY = [
  'MIIEowIBAAKCAQEAv5VmL0b2kQk3PjX9fQe2Yl7cZtT1nHq8WwR4sJ6dF0aGhK',
  'Lk9pO2iU7yT5rE3wQ1aZxC4vB6nM8qW0eR2tY4uI6oP8aS0dF2gH4jK6lZ8xC',
  'Vb1nM3qW5eR7tY9uI1oP3aS5dF7gH9jK1lZ3xC5vB7nM9qW1eR3tY5uI7oP9a',
];

const STRIPE_LIVE_KEY_2 = join('sk_', 'live_', '51KzQw8RtYuIoPaSdFgHjKlZxCvBnM1234567890qWeRtYuIoPaSd');
const OPENAI_PROJECT_KEY_2 = join('sk-', 'proj-', 'Qw3rTy7uIoP9aSdF2gHjK4lZxC6vBnM8');
const AWS_SECRET_ACCESS_KEY_2 = join('je7MtGbClwBF', '/2Zp9Utk/h3yCo8nvbEXAMPLEKEY');
const AZURE_STORAGE_KEY = join(
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq',
  '/K1SZFPTOtr/KBHBeksoGMGw==',
);
const MAILGUN_LEGACY_KEY = join('key-', '3ax6xnjp29jd6fds4gc373sgvjxteol0');
const MAILGUN_KEY = join('f3c1a4b2e5d6978a0b1c2d3e4f5a6b7c', '-2e68d0fb-8a9c1d2e');
const TWILIO_ACCOUNT_SID = join('AC', 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
const TWILIO_ACCOUNT_SID_2 = join('AC', '0f1e2d3c4b5a69788796a5b4c3d2e1f0');
const TWILIO_API_KEY_SID = join('SK', '0123456789abcdef0123456789abcdef');
const AZURE_AD_SECRET = join('7Xb', '8Q~', 'Fz3kLmN0pQrStUvWx.yZ1aB2cD3eF4gH5i');
const AZURE_AD_SECRET_2 = join('Qx2', '7Q~', 'a.B3cD_4eF-5gH6iJ7kL8mN9oP0qR1sT2u');
const GITLAB_RUNNER_TOKEN = join('glrt-', 't3_2CR8eVxiioB1QmzPZwaQ');
const GITLAB_REGISTRATION_TOKEN = join('GR1348941', 'zXyWvUtSrQpOnMlKjIhG');
const SHOPIFY_ACCESS_TOKEN = join('shpat_', '5d1b2c3a4f6e7d8c9b0a1f2e3d4c5b6a');
const SHOPIFY_SHARED_SECRET = join('shpss_', '0a1b2c3d4e5f60718293a4b5c6d7e8f9');
const PYPI_TOKEN = join('pypi-', 'AgEIcHlwaS5vcmcCJDk3ZjE4Y2E0LTQ1NmQtNDU0');
const DIGITALOCEAN_TOKEN = join(
  'dop_v1_',
  'b7e2f1a0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2',
);
const ATLASSIAN_TOKEN = join('ATATT3x', 'FfGF0T2pLm9xQ4rS7vW1yZ3bC6dE8gH0jK2mN5pQ7s=A1B2C3D4');
const VAULT_TOKEN = join('hvs.', 'CAESIBx9Xk2kLm0pQrStUvWxYz12AbCdEfGh');

const base64 = (text: string): string => Buffer.from(text).toString('base64');
/** Hard-wraps text at 80 columns, as a terminal or a log viewer does. */
const wrapAt80 = (text: string): string => text.replace(/.{80}(?=.)/g, '$&\n');
const m = (
  category: HostileCategory,
  name: string,
  message: string,
  secrets: readonly string[],
): HostileErrorMessage => ({ category, name, message, secrets });

export const HOSTILE_ERROR_MESSAGES: readonly HostileErrorMessage[] = [
  {
    category: 'database',
    name: 'knex unique violation with the failing query',
    message:
      'insert into "customers" ("email", "stripe_id") values ($1, $2) returning "id" - duplicate key value violates unique constraint "customers_email_key"',
    secrets: ['insert into "customers"', '"stripe_id"', 'values ($1, $2)'],
  },
  {
    category: 'database',
    name: 'pg unique violation with DETAIL and QUERY',
    message: [
      'error: duplicate key value violates unique constraint "users_email_key"',
      'DETAIL:  Key (email)=(margaret.hopper@acme-payments.com) already exists.',
      "QUERY: INSERT INTO users (email, password_hash) VALUES ('margaret.hopper@acme-payments.com', '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy')",
    ].join('\n'),
    secrets: [
      'margaret.hopper@acme-payments.com',
      'INSERT INTO users',
      'password_hash',
      '$2b$10$N9qo8uLOickgx2ZMRZoMye',
    ],
  },
  {
    category: 'database',
    name: 'pg not-null violation with the failing row',
    message:
      'null value in column "tax_id" of relation "vendors" violates not-null constraint\nDETAIL:  Failing row contains (7731, Initech LLC, null, 4111111111111111, 2024-03-01).',
    secrets: ['4111111111111111', 'Initech LLC'],
  },
  {
    category: 'credential',
    name: 'pg auth failure quoting its connection string',
    message:
      'error: password authentication failed for user "svc_billing" (connection string: postgresql://svc_billing:Tr0ub4dor&3@billing-db.prod.internal:5432/billing?sslmode=require)',
    secrets: ['Tr0ub4dor&3', 'billing-db.prod.internal', 'postgresql://svc_billing'],
  },
  {
    category: 'internal',
    name: 'Node ECONNREFUSED',
    message: 'connect ECONNREFUSED 10.0.3.7:5432',
    secrets: ['10.0.3.7'],
  },
  {
    category: 'internal',
    name: 'Node ETIMEDOUT with a multi-line stack',
    message: [
      'Error: connect ETIMEDOUT 172.31.44.210:6379',
      '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
      '    at RedisClient.connect (/srv/app/node_modules/ioredis/built/Redis.js:262:25)',
    ].join('\n'),
    secrets: ['172.31.44.210', '/srv/app/node_modules', 'Redis.js:262', 'RedisClient.connect'],
  },
  {
    category: 'credential',
    name: 'MongoDB SRV connection string',
    message:
      'MongoServerSelectionError: getaddrinfo ENOTFOUND cluster0-shard-00-01.x7k2p.mongodb.net (uri: mongodb+srv://app_user:pL9%23xQ2mZ@cluster0.x7k2p.mongodb.net/orders?retryWrites=true)',
    secrets: ['pL9%23xQ2mZ', 'cluster0-shard-00-01.x7k2p.mongodb.net', 'x7k2p', 'app_user'],
  },
  {
    category: 'credential',
    name: 'Redis WRONGPASS with its URL',
    message:
      'ReplyError: WRONGPASS invalid username-password pair or user is disabled. url=redis://default:8f2KqLz0wP@redis-primary.cache.svc.cluster.local:6379/0',
    secrets: ['8f2KqLz0wP', 'redis-primary.cache.svc.cluster.local'],
  },
  {
    category: 'credential',
    name: 'MySQL access denied',
    message:
      "Error: Access denied for user 'root'@'10.12.0.44' (using password: YES) [mysql://root:hunter2@10.12.0.44:3306/shop]",
    secrets: ['hunter2', '10.12.0.44'],
  },
  {
    category: 'database',
    name: 'MySQL duplicate entry',
    message: "ER_DUP_ENTRY: Duplicate entry '078-05-1120' for key 'patients.ssn_unique'",
    secrets: ['078-05-1120'],
  },
  {
    category: 'internal',
    name: 'Prisma invocation error with a source path',
    message: [
      'Invalid `prisma.user.create()` invocation in',
      '/Users/jdoe/work/acme-api/src/services/user-service.ts:42:29',
      '',
      '  39 export async function createUser(input) {',
      '→ 42   return prisma.user.create({',
      'Unique constraint failed on the fields: (`email`)',
    ].join('\n'),
    secrets: ['/Users/jdoe', 'jdoe', 'acme-api/src/services'],
  },
  {
    category: 'internal',
    name: 'Prisma P1001 with an RDS endpoint',
    message:
      "Can't reach database server at `db-prod-1.c9akciq32.eu-west-1.rds.amazonaws.com`:`5432`\n\nPlease make sure your database server is running at `db-prod-1.c9akciq32.eu-west-1.rds.amazonaws.com`:`5432`.",
    secrets: ['db-prod-1.c9akciq32.eu-west-1.rds.amazonaws.com', 'c9akciq32'],
  },
  {
    category: 'database',
    name: 'TypeORM query with selected columns and parameters',
    message:
      'QueryFailedError: SELECT "User"."id" AS "User_id", "User"."ssn" AS "User_ssn" FROM "users" "User" WHERE "User"."email" = $1 -- PARAMETERS: ["bob@example.org"]',
    secrets: ['"User"."ssn"', 'FROM "users"', 'bob@example.org'],
  },
  {
    category: 'database',
    name: 'formatted multi-line SQL',
    message: [
      'Query failed: error: column "credit_limit" does not exist',
      'SELECT id, name, credit_limit',
      '  FROM accounts',
      '  WHERE owner_id = 42',
      '  ORDER BY name',
    ].join('\n'),
    secrets: ['SELECT id, name, credit_limit', 'FROM accounts', 'owner_id = 42'],
  },
  {
    category: 'database',
    name: 'drizzle failed query',
    message:
      'Failed query: update "subscriptions" set "plan" = $1, "seats" = $2 where "subscriptions"."org_id" = $3\nparams: enterprise,250,org_91c2',
    secrets: ['update "subscriptions"', '"org_id"', '"seats"'],
  },
  {
    category: 'credential',
    name: 'axios 401 with URL and auth headers',
    message: [
      'AxiosError: Request failed with status code 401',
      '  config.url: https://api.partner-bank.example.com/v2/accounts?api_key=pk_9f8e7d6c5b4a',
      '  headers.Authorization: Bearer 9a8b7c6d5e4f3a2b1c0dEFGH',
      '  headers.x-api-key: AbC123xYz789QwE456',
    ].join('\n'),
    secrets: [
      'api.partner-bank.example.com',
      'pk_9f8e7d6c5b4a',
      '9a8b7c6d5e4f3a2b1c0dEFGH',
      'AbC123xYz789QwE456',
    ],
  },
  {
    category: 'credential',
    name: 'axios 403 with basic auth',
    message:
      'Error: Request failed with status code 403 (GET https://internal-tools.corp.acme.net/admin/export) Authorization: Basic YWRtaW46c3VwZXJzZWNyZXQ=',
    secrets: ['internal-tools.corp.acme.net', 'YWRtaW46c3VwZXJzZWNyZXQ='],
  },
  {
    category: 'internal',
    name: 'AWS SDK AccessDenied with ARNs',
    message:
      'AccessDeniedException: User: arn:aws:iam::123456789012:user/ci-deployer is not authorized to perform: secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf because no identity-based policy allows the secretsmanager:GetSecretValue action',
    secrets: ['123456789012', 'ci-deployer', 'prod/db-AbCdEf'],
  },
  {
    category: 'credential',
    name: 'AWS SDK invalid credentials',
    message: `InvalidClientTokenId: The security token included in the request is invalid. (AccessKeyId: ${AWS_ACCESS_KEY_ID}, SecretAccessKey: ${AWS_SECRET_ACCESS_KEY})`,
    secrets: [AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY],
  },
  {
    category: 'credential',
    name: 'S3 presigned URL in NoSuchKey',
    message: `NoSuchKey: The specified key does not exist. url: https://acme-invoices-prod.s3.eu-central-1.amazonaws.com/2024/03/inv-20931.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${AWS_TEMP_KEY_ID}%2F20240301&X-Amz-Signature=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`,
    secrets: ['acme-invoices-prod', AWS_TEMP_KEY_ID, '9f86d081884c7d659a2feaa0c55ad015'],
  },
  {
    category: 'credential',
    name: 'AWS credentials file dump',
    message: `Error loading profile "prod": [prod]\naws_access_key_id = ${AWS_TEMP_KEY_ID}\naws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}\naws_session_token = IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD`,
    secrets: [AWS_TEMP_KEY_ID, AWS_SECRET_ACCESS_KEY, 'IQoJb3JpZ2luX2VjEJr'],
  },
  {
    category: 'credential',
    name: 'Stripe invalid live key',
    message: `StripeAuthenticationError: Invalid API Key provided: ${STRIPE_LIVE_KEY}`,
    secrets: [STRIPE_LIVE_KEY, '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HKk1Fh0DOSbCoVMdfMbn7hzVjQ'],
  },
  {
    category: 'credential',
    name: 'Stripe restricted key and customer email',
    message: `StripePermissionError: The provided key '${STRIPE_RESTRICTED_KEY}' does not have access to customers (customer cus_PqR7sT, email billing@northwind-traders.com)`,
    secrets: [STRIPE_RESTRICTED_KEY, 'billing@northwind-traders.com'],
  },
  {
    category: 'credential',
    name: 'OpenAI 401 with a project key',
    message: `401 Incorrect API key provided: ${OPENAI_PROJECT_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    secrets: [OPENAI_PROJECT_KEY, 'Xy9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT'],
  },
  {
    category: 'credential',
    name: 'OpenAI legacy key in an env echo',
    message: `OpenAIError: The OPENAI_API_KEY environment variable is malformed: "${OPENAI_LEGACY_KEY}"`,
    secrets: [OPENAI_LEGACY_KEY, 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRs'],
  },
  {
    category: 'credential',
    name: 'Anthropic key in a request dump',
    message: `AuthenticationError: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}} request headers: {"x-api-key":"${ANTHROPIC_KEY}","anthropic-version":"2023-06-01"}`,
    secrets: [ANTHROPIC_KEY, 'api03-Zq8Yw7Xv6Ut5'],
  },
  {
    category: 'credential',
    name: 'GitHub classic and fine-grained tokens',
    message: `HttpError: Bad credentials - https://docs.github.com/rest (tried ${GITHUB_TOKEN}, then ${GITHUB_PAT})`,
    secrets: [GITHUB_TOKEN, GITHUB_PAT, '1a2B3c4D5e6F7g8H9i0J'],
  },
  {
    category: 'credential',
    name: 'Slack bot token',
    message: `slack_webhook_error: invalid_auth while posting with ${SLACK_BOT_TOKEN} to channel C024BE91L`,
    secrets: [SLACK_BOT_TOKEN, '4190011228-AbCdEf'],
  },
  {
    category: 'credential',
    name: 'Google API key',
    message: `API key not valid. Please pass a valid API key. [key=${GOOGLE_API_KEY}]`,
    secrets: [GOOGLE_API_KEY, 'SyD-9tSrke72PouQ'],
  },
  {
    category: 'credential',
    name: 'JWT in a verification error',
    message: `JsonWebTokenError: jwt expired; token ${JWT} issued for user`,
    secrets: [JWT, 'eyJzdWIiOiJ1c3JfODgyMSIsImVtYWlsIjoiamFuZUBhY21lLmNvbSIsImV4cCI6MTcwMDAwMDAwMH0'],
  },
  {
    category: 'credential',
    name: 'PEM private key, complete',
    message: `Error: error:1E08010C:DECODER routines::unsupported\nkey: -----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.join('\n')}\n-----END RSA PRIVATE KEY-----`,
    secrets: [...PEM_BODY, PEM_BODY.join('\n')],
  },
  {
    category: 'credential',
    name: 'PEM private key, truncated inside a service-account JSON',
    message: `Failed to parse service account: {"type":"service_account","project_id":"acme-prod-381","private_key_id":"4f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6","private_key":"-----BEGIN PRIVATE KEY-----\\n${PEM_BODY[0]}\\n${PEM_BODY[1]}`,
    secrets: [PEM_BODY[0] ?? '', PEM_BODY[1] ?? '', '4f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6'],
  },
  {
    category: 'internal',
    name: 'ENOENT with a Windows path',
    message:
      "Error: ENOENT: no such file or directory, open 'C:\\Users\\Priya Raman\\AppData\\Roaming\\acme-cli\\credentials.json'",
    secrets: ['Priya Raman', 'C:\\Users', 'AppData\\Roaming'],
  },
  {
    category: 'internal',
    name: 'ENOENT with a unix path',
    message: "ENOENT: no such file or directory, stat '/home/deploy/.aws/credentials'",
    secrets: ['/home/deploy', '.aws/credentials'],
  },
  {
    category: 'internal',
    name: 'EACCES with a home path',
    message: "EACCES: permission denied, open '~/.ssh/id_ed25519'",
    secrets: ['~/.ssh', 'id_ed25519'],
  },
  {
    category: 'internal',
    name: 'EPERM with a UNC path',
    message: "EPERM: operation not permitted, open '\\\\fileserver01\\finance$\\payroll\\2024-03.xlsx'",
    secrets: ['fileserver01', 'finance$', 'payroll'],
  },
  {
    category: 'internal',
    name: 'Python traceback with a DSN',
    message: [
      'Traceback (most recent call last):',
      '  File "/opt/airflow/dags/etl/load_customers.py", line 88, in load',
      '    conn = psycopg2.connect(dsn="host=10.20.30.40 user=etl password=Kx7$mq2!v dbname=crm")',
      '  File "/usr/local/lib/python3.11/site-packages/psycopg2/__init__.py", line 122, in connect',
      '    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)',
      'psycopg2.OperationalError: connection to server at "10.20.30.40", port 5432 failed: FATAL:  password authentication failed for user "etl"',
    ].join('\n'),
    secrets: ['/opt/airflow/dags', 'load_customers.py', 'Kx7$mq2!v', '10.20.30.40', 'site-packages/psycopg2'],
  },
  {
    category: 'internal',
    name: 'Python requests connection error with a vault token',
    message:
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='vault.ops.acme-internal.net', port=8200): Max retries exceeded with url: /v1/secret/data/prod/stripe?token=hvs.CAESIJ3x9Xk2kLm0pQrStUv (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3a2c1d9e50>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    secrets: ['vault.ops.acme-internal.net', 'hvs.CAESIJ3x9Xk2kLm0pQrStUv', '/v1/secret/data/prod/stripe'],
  },
  {
    category: 'internal',
    name: 'Node TypeError with an async stack',
    message: [
      "TypeError: Cannot read properties of undefined (reading 'id')",
      '    at getInvoice (/app/dist/services/invoice.js:118:27)',
      '    at async Promise.all (index 0)',
      '    at async /app/dist/routes/billing.js:54:9',
    ].join('\n'),
    secrets: ['/app/dist/services/invoice.js', 'getInvoice', '/app/dist/routes/billing.js'],
  },
  {
    category: 'internal',
    name: 'Java PSQLException with frames',
    message: [
      'org.postgresql.util.PSQLException: ERROR: permission denied for table payroll',
      '\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2676)',
      '\tat com.acme.billing.AuditRepository.save(AuditRepository.java:88)',
    ].join('\n'),
    secrets: ['QueryExecutorImpl.java:2676', 'com.acme.billing.AuditRepository'],
  },
  {
    category: 'internal',
    name: 'Go panic with goroutine dump',
    message: [
      'panic: dial tcp 192.168.14.22:9092: connect: connection refused',
      '',
      'goroutine 1 [running]:',
      'main.mustConnect(...)',
      '\t/home/runner/work/ingest/ingest/cmd/worker/main.go:57 +0x1d4',
    ].join('\n'),
    secrets: ['192.168.14.22', '/home/runner/work/ingest', 'main.go:57'],
  },
  {
    category: 'personal',
    name: 'SMTP rejection with email and IPv6',
    message:
      'SMTP 550 5.1.1 <ceo@globex-corp.com>: Recipient address rejected (client [2001:db8:85a3::8a2e:370:7334])',
    secrets: ['ceo@globex-corp.com', '2001:db8:85a3::8a2e:370:7334'],
  },
  {
    category: 'internal',
    name: 'Kubernetes service DNS failure',
    message: 'Error: getaddrinfo EAI_AGAIN payments-api.payments.svc.cluster.local',
    secrets: ['payments-api.payments.svc.cluster.local'],
  },
  {
    category: 'internal',
    name: 'TLS error naming internal hosts',
    message:
      'Error: self-signed certificate in certificate chain (host: ldap.corp.globex.com, servername: ldap.corp.globex.com, local: 10.40.2.9)',
    secrets: ['ldap.corp.globex.com', '10.40.2.9'],
  },
  {
    category: 'credential',
    name: 'environment validation dump',
    message:
      'Config validation failed: DATABASE_PASSWORD="correct horse battery staple" REDIS_TOKEN=r3d1s-t0k3n-x SESSION_SECRET=\'s3ss10n-s3cr3t\'',
    secrets: ['correct horse battery staple', 'r3d1s-t0k3n-x', 's3ss10n-s3cr3t'],
  },
  {
    category: 'credential',
    name: 'OAuth error echoing the request body',
    message:
      '400 Bad Request: {"error":"invalid_grant","client_secret":"9c1f0e2d3b4a","refresh_token":"1//0gLm3n4o5p6q7r8s9t","username":"alice@contoso.com"}',
    secrets: ['9c1f0e2d3b4a', '1//0gLm3n4o5p6q7r8s9t', 'alice@contoso.com'],
  },
  {
    category: 'credential',
    name: 'cookie header in a 401',
    message:
      'Error: 401 Unauthorized (Cookie: connect.sid=s%3AqX9mZ2kL7pR4.tY8uI3oP6aS1dF5gH0jK; csrftoken=Zx8Cv7Bn6Mm5)',
    secrets: ['s%3AqX9mZ2kL7pR4', 'Zx8Cv7Bn6Mm5'],
  },
  {
    category: 'credential',
    name: 'libpq key=value DSN',
    message:
      'could not connect: host=pg-replica-2.data.acme.io port=5432 user=reporting password=Rp0rt!ng#2024 sslmode=verify-full',
    secrets: ['pg-replica-2.data.acme.io', 'Rp0rt!ng#2024'],
  },
  {
    category: 'credential',
    name: 'Sentry DSN',
    message: 'Sentry init failed for dsn https://4f2e9c1b7a8d4e3f@o123456.ingest.sentry.io/789 (timeout)',
    secrets: ['4f2e9c1b7a8d4e3f', 'o123456.ingest.sentry.io'],
  },
  {
    category: 'credential',
    name: 'credentials without a scheme',
    message: 'Login to registry failed for deploy:gh0st!Writer#9@registry.build.acme.io:5000 (unauthorized)',
    secrets: ['gh0st!Writer#9', 'registry.build.acme.io'],
  },
  {
    category: 'credential',
    name: 'password hidden behind a zero-width space',
    message: 'Invalid credentials: pass\u200Bword=Qw3rty!2024 for admin',
    secrets: ['Qw3rty!2024'],
  },
  {
    category: 'personal',
    name: 'bidi override hiding an email',
    message: 'Delivery failed for \u202Emoc.elpmaxe@nhoj\u202C and john.doe@example.com',
    secrets: ['john.doe@example.com', '\u202E'],
  },
  // ——— Credentials in forms other than key=value ———
  m(
    'credential',
    'Basic auth in a lower-case JSON header dump',
    `FetchError: 401 Unauthorized from upstream; request headers {"authorization":"basic ${base64('deploy:Summer2024!')}","accept":"application/json"}`,
    [base64('deploy:Summer2024!')],
  ),
  m(
    'credential',
    'Basic auth in upper case in a raw HTTP dump',
    `HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Basic realm="admin"\nrequest: GET /admin/export HTTP/1.1\nAUTHORIZATION: BASIC ${base64('admin:admin123')}`,
    [base64('admin:admin123')],
  ),
  m(
    'credential',
    'proxy Basic auth in a tunnel error',
    `Error: tunneling socket could not be established, statusCode=407 (sent Proxy-Authorization: Basic ${base64('squid:proxyPass1')})`,
    [base64('squid:proxyPass1')],
  ),
  m(
    'credential',
    'curl verbose output with Basic auth',
    `curl: (22) The requested URL returned error: 403\n> GET /api/v1/reports HTTP/2\n> authorization: Basic ${base64('john:j0hn_pwd')}\n< HTTP/2 403`,
    [base64('john:j0hn_pwd')],
  ),
  m(
    'credential',
    'Oracle TNS connection string with a password',
    'ORA-12154: TNS:could not resolve the connect identifier specified (Data Source=(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=ora-fin-01.corp.acme.com)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=FINPROD)));User Id=fin_app;Password=Orac1e#Pw2024;)',
    ['Orac1e#Pw2024', 'ora-fin-01.corp.acme.com'],
  ),
  m(
    'credential',
    'Oracle connection string with a quoted password with spaces',
    'OracleException: ORA-01017: invalid username/password; logon denied [User Id=hr_batch;Password="Spring Time 2024!";Data Source=hrdb.acme.local:1521/HRPDB]',
    ['Spring Time 2024!', 'hrdb.acme.local'],
  ),
  m(
    'credential',
    'ODBC connection string with a braced password',
    "[Microsoft][ODBC Driver 18 for SQL Server][SQL Server]Login failed for user 'erp_reader'. (18456) connection string: Driver={ODBC Driver 18 for SQL Server};Server=tcp:sql-erp-02.acme.local,1433;Database=ERP;Uid=erp_reader;Pwd={p@ss;word with spaces};Encrypt=yes;",
    ['p@ss;word with spaces', 'sql-erp-02.acme.local'],
  ),
  m(
    'credential',
    'ADO.NET connection string with a password with spaces',
    "SqlException (0x80131904): Login failed for user 'payroll_svc'. ConnectionString: Server=PAYDB01\\SQLEXPRESS;Database=Payroll;User ID=payroll_svc;Password=Winter is Coming 2024;TrustServerCertificate=True",
    ['Winter is Coming 2024', 'PAYDB01\\SQLEXPRESS'],
  ),
  m(
    'credential',
    'Npgsql connection string with a single-quoted password',
    "Npgsql.NpgsqlException: Failed to connect to 10.8.0.12:5432 with Host=10.8.0.12;Username=ledger;Password='l3dg3r pass';Database=ledger",
    ['l3dg3r pass', '10.8.0.12'],
  ),
  m(
    'credential',
    'Azure Storage connection string',
    `Azure.RequestFailedException: Server failed to authenticate the request. Connection string: DefaultEndpointsProtocol=https;AccountName=acmeprodstore;AccountKey=${AZURE_STORAGE_KEY};EndpointSuffix=core.windows.net`,
    [AZURE_STORAGE_KEY, 'acmeprodstore'],
  ),
  m(
    'credential',
    'Azure Service Bus connection string',
    "ServiceBusError: Unauthorized access. 'Send' claim(s) are required. Endpoint=sb://acme-orders.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=kX3q0Rb7Lm9TzY2wV5uN8sP1aD4fG6hJ0kL2mQ=",
    ['kX3q0Rb7Lm9TzY2wV5uN8sP1aD4fG6hJ0kL2mQ=', 'acme-orders.servicebus'],
  ),
  m(
    'credential',
    'JDBC URL with semicolon properties',
    'com.microsoft.sqlserver.jdbc.SQLServerException: Login failed. url=jdbc:sqlserver://sql01.acme.corp:1433;databaseName=hr;user=hr_app;password=Hr!2024secure;encrypt=true',
    ['Hr!2024secure', 'sql01.acme.corp'],
  ),
  m(
    'credential',
    'Mailgun legacy API key without a key name',
    `Mailgun API error: 401 Forbidden (POST https://api.mailgun.net/v3/mg.acme-mail.com/messages with ${MAILGUN_LEGACY_KEY})`,
    [MAILGUN_LEGACY_KEY, '3ax6xnjp29jd6fds4gc373sgvjxteol0'],
  ),
  m(
    'credential',
    'Mailgun API key in a sentence',
    `mailgun.js: Unauthorized, api key ${MAILGUN_KEY} rejected for domain sandbox.mailgun.org`,
    [MAILGUN_KEY],
  ),
  m(
    'credential',
    'Twilio account SID and API key SID',
    `RestException [Error]: Authenticate (code 20003) account ${TWILIO_ACCOUNT_SID} with API key ${TWILIO_API_KEY_SID}`,
    [TWILIO_ACCOUNT_SID, TWILIO_API_KEY_SID],
  ),
  m(
    'credential',
    'Twilio client constructed with an auth token',
    `twilio.base.exceptions.TwilioRestException: HTTP 401 error: Unable to create record: Authenticate\nClient('${TWILIO_ACCOUNT_SID_2}', '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b')`,
    [TWILIO_ACCOUNT_SID_2, '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b'],
  ),
  m(
    'credential',
    'Azure AD client secret in an MSAL error',
    `ClientSecretCredential authentication failed: AADSTS7000215: Invalid client secret provided (secret used: ${AZURE_AD_SECRET})`,
    [AZURE_AD_SECRET],
  ),
  m(
    'credential',
    'Azure AD client secret in a configuration echo',
    `MSAL: confidential client app 04b07795-8ddb-461a-bbee-02f9e1bf7b46 configured with ${AZURE_AD_SECRET_2} failed token acquisition`,
    [AZURE_AD_SECRET_2],
  ),
  m(
    'credential',
    'GitLab runner authentication token in a runner log',
    `ERROR: Verifying runner... is removed                 runner=${GITLAB_RUNNER_TOKEN} status=GET https://gitlab.acme.io/api/v4/runners/verify: 403 Forbidden`,
    [GITLAB_RUNNER_TOKEN, 'gitlab.acme.io'],
  ),
  m(
    'credential',
    'GitLab runner registration token on a command line',
    `Command failed: gitlab-runner register --non-interactive --url https://gitlab.acme.io --registration-token ${GITLAB_REGISTRATION_TOKEN}\nERROR: Registering runner... forbidden (check registration token)`,
    [GITLAB_REGISTRATION_TOKEN],
  ),
  m(
    'credential',
    'Shopify admin access token without a key name',
    `ShopifyErrors: [API] Invalid API key or access token (unrecognized login or wrong password) using ${SHOPIFY_ACCESS_TOKEN} for acme-store.myshopify.com`,
    [SHOPIFY_ACCESS_TOKEN, 'acme-store.myshopify.com'],
  ),
  m(
    'credential',
    'Shopify shared secret in a webhook error',
    `HMAC validation failed for webhook orders/create: ${SHOPIFY_SHARED_SECRET} did not sign this body`,
    [SHOPIFY_SHARED_SECRET],
  ),
  m(
    'credential',
    'long hex webhook secret',
    'WebhookVerificationError: signature mismatch using webhook secret 9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c for endpoint we_1NqZ',
    ['9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c'],
  ),
  m(
    'credential',
    'Datadog API key as long hex',
    'Datadog API error 403 Forbidden: API key 5f4dcc3b5aa765d61d8327deb882cf99 is invalid',
    ['5f4dcc3b5aa765d61d8327deb882cf99'],
  ),
  m(
    'credential',
    'New Relic license key as long hex',
    'newrelic: license key 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 is invalid, agent disabled',
    ['0a1b2c3d4e5f60718293a4b5c6d7e8f901234567'],
  ),
  m(
    'credential',
    'AES key in a decryption error',
    'crypto: AES-256-GCM decrypt failed with key A3F1C9E7B5D3F1A9C7E5B3D1F9A7C5E3B1D9F7A5C3E1B9D7F5A3C1E9B7D5F3A1 (bad tag)',
    ['A3F1C9E7B5D3F1A9C7E5B3D1F9A7C5E3'],
  ),
  m(
    'credential',
    'mysql password glued to -p',
    "Command failed: mysql -h db.internal -u root -pR00tPassw0rd -e \"SHOW DATABASES\"\nERROR 1045 (28000): Access denied for user 'root'@'172.18.0.5' (using password: YES)",
    ['R00tPassw0rd', '172.18.0.5', 'db.internal'],
  ),
  m(
    'credential',
    'redis-cli password after -a',
    'Error: Command failed: redis-cli -h cache-01 -p 6380 -a S3cretRedis!Pass PING\nAUTH failed: WRONGPASS invalid username-password pair',
    ['S3cretRedis!Pass'],
  ),
  m(
    'credential',
    'curl user and password after -u',
    'Error: Command failed: curl -sf -u admin:Adm1nPass! https://jenkins.acme.internal/job/deploy/build\ncurl: (22) The requested URL returned error: 401',
    ['Adm1nPass!', 'jenkins.acme.internal'],
  ),
  m(
    'credential',
    'sshpass with a quoted password',
    "sshpass -p 'Tr1cky pass' ssh deploy@bastion.acme.internal exited with code 5 (invalid/incorrect password)",
    ['Tr1cky pass', 'bastion.acme.internal'],
  ),
  m(
    'credential',
    'password flag separated by a space',
    "pg_restore: error: could not connect; ran: pg_restore --host pg-main --username backup --password 'B4ckup#Night' -d crm",
    ['B4ckup#Night'],
  ),
  m(
    'credential',
    'quoted password in a sentence',
    'ssh: handshake failed: password "Sup3r$ecret" rejected for root on bastion-2.acme.internal',
    ['Sup3r$ecret'],
  ),
  m(
    'credential',
    'PyPI upload token without a key name',
    `HTTPError: 403 Forbidden from https://upload.pypi.org/legacy/ Invalid or non-existent authentication information. Used ${PYPI_TOKEN}`,
    [PYPI_TOKEN],
  ),
  m(
    'credential',
    'DigitalOcean token in an API error',
    `godo: DELETE https://api.digitalocean.com/v2/droplets/3164494: 401 Unable to authenticate you (${DIGITALOCEAN_TOKEN})`,
    [DIGITALOCEAN_TOKEN],
  ),
  m(
    'credential',
    'Telegram bot token',
    'TelegramError: 401: Unauthorized (bot 5912345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw)',
    ['AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'],
  ),
  m(
    'credential',
    'Atlassian API token',
    `JiraApiError: 401 Client must be authenticated to access this resource (user ops@acme.io, ${ATLASSIAN_TOKEN})`,
    [ATLASSIAN_TOKEN, 'ops@acme.io'],
  ),
  m(
    'credential',
    'Vault token in parentheses',
    `vault: Error making API request. Code: 403. Errors: * permission denied (${VAULT_TOKEN})`,
    [VAULT_TOKEN],
  ),

  // ——— Encoded and split secrets ———
  m(
    'encoded',
    'percent-encoded form body of a password grant',
    'OAuth token request failed (400 invalid_grant): body grant_type=password&username=jane.roe%40acme.com&password=Pa%24%24w0rd%21&client_id=web',
    ['jane.roe%40acme.com', 'Pa%24%24w0rd%21'],
  ),
  m(
    'encoded',
    'percent-encoded redirect URI with a token',
    'invalid redirect_uri: https%3A%2F%2Fadmin.internal.acme.corp%2Fcallback%3Faccess_token%3DgHt5Kp2QmZ8xLw',
    ['admin.internal.acme.corp', 'gHt5Kp2QmZ8xLw'],
  ),
  m(
    'encoded',
    'percent-encoded DSN in a query parameter',
    'GET /debug/connect?dsn=postgres%3A%2F%2Fetl%3AKx7mq2v%40pg.acme.internal%3A5432%2Fcrm returned 500',
    ['Kx7mq2v', 'pg.acme.internal'],
  ),
  m(
    'encoded',
    'percent-encoded SSN in a URI',
    'URIError: 414 Request-URI Too Long: /search?q=ssn%3D512-43-7789%26name%3DJohn+Smith',
    ['512-43-7789'],
  ),
  m(
    'encoded',
    'percent-encoded email with accents',
    'GET /v1/customers?email=mar%C3%ADa.garc%C3%ADa%40correo.es 404 Not Found',
    ['mar%C3%ADa.garc%C3%ADa%40correo.es'],
  ),
  m(
    'encoded',
    'base64 of user:password in a docker auths entry',
    `unauthorized: authentication required (auths["registry.acme.io"] = ${base64('deploy:gh0st!Writer#9')})`,
    [base64('deploy:gh0st!Writer#9')],
  ),
  m(
    'encoded',
    'base64 credentials in a proxy log',
    `WARN proxy auth rejected for credentials ${base64('svc-etl:Etl2024pw')} from 10.9.8.7`,
    [base64('svc-etl:Etl2024pw'), '10.9.8.7'],
  ),
  m(
    'encoded',
    'base64 of a connection string',
    `config decode failed: DATABASE_URL_B64 = ${base64('postgres://app:Zx9pass@10.1.2.3:5432/app')}`,
    [base64('postgres://app:Zx9pass@10.1.2.3:5432/app')],
  ),
  m(
    'encoded',
    'JSON-escaped request body inside an error',
    `upstream error: ${JSON.stringify({ message: 'validation failed', input: JSON.stringify({ email: 'li.wei@example.cn', password: 'hunter2!x' }) })}`,
    ['li.wei@example.cn', 'hunter2!x'],
  ),
  m(
    'encoded',
    'double-escaped JSON with a password and a token',
    JSON.stringify({
      error: JSON.stringify({
        detail: JSON.stringify({ password: 'D0ubl3Esc@ped', session_token: 'tk_9aB3cD5eF7gH' }),
      }),
    }),
    ['D0ubl3Esc@ped', 'tk_9aB3cD5eF7gH'],
  ),
  m(
    'encoded',
    'PHP-escaped slashes in a URL with credentials',
    '{"status":500,"error":"PDOException","dsn":"pgsql:host=10.4.4.4;dbname=crm","url":"https:\\/\\/api:Ph9Esc4pe@internal-api.acme.lan\\/v1"}',
    ['Ph9Esc4pe', 'internal-api.acme.lan', '10.4.4.4'],
  ),
  m(
    'encoded',
    'JSON unicode escape for an equals sign',
    '{"level":"error","msg":"login failed","cmd":"acme-cli login --user ops --password\\u003dG0-Esc4ped"}',
    ['G0-Esc4ped'],
  ),
  m(
    'encoded',
    'JSON unicode-escaped quotes around an API key',
    '{"body":"{\\u0022api_key\\u0022:\\u0022ak_live_7Hq2Lm9xPz\\u0022}"}',
    ['ak_live_7Hq2Lm9xPz'],
  ),
  m(
    'encoded',
    'HTML-escaped JSON in a gateway error page',
    '502 Bad Gateway: <pre>{&quot;password&quot;:&quot;Html3sc4ped!&quot;,&quot;user&quot;:&quot;ops&quot;}</pre>',
    ['Html3sc4ped!'],
  ),
  m(
    'encoded',
    'HTML entity for an equals sign',
    'Login failed: form data user=admin&amp;password&#61;Ent1ty-Pw',
    ['Ent1ty-Pw'],
  ),
  m(
    'encoded',
    'an AWS secret wrapped at 80 columns',
    wrapAt80(
      `botocore.exceptions.ClientError: SignatureDoesNotMatch for PutObject, secret ${AWS_SECRET_ACCESS_KEY_2} (check your clock)`,
    ),
    [AWS_SECRET_ACCESS_KEY_2],
  ),
  m(
    'encoded',
    'a Stripe key wrapped at 80 columns',
    wrapAt80(
      `Error: Request req_8Yt2 failed: StripeAuthenticationError: Invalid API Key provided: ${STRIPE_LIVE_KEY_2}`,
    ),
    [STRIPE_LIVE_KEY_2],
  ),
  m('encoded', 'a key on the line after its label', `Invalid API Key provided:\n  ${OPENAI_PROJECT_KEY_2}`, [
    OPENAI_PROJECT_KEY_2,
  ]),
  m(
    'encoded',
    'an environment dump with _PW, _SALT and _PIN',
    'Missing required env REDIS_URL. Environment: NODE_ENV=production DB_PW=Pg!pw2024 HASH_SALT=8c1f3e0a2b4d6f7a SMS_PIN=482913 LDAP_BIND_PW=Ld@pB1nd',
    ['Pg!pw2024', '8c1f3e0a2b4d6f7a', '482913', 'Ld@pB1nd'],
  ),
  m(
    'encoded',
    'a Python environ repr',
    "KeyError: 'STRIPE_WEBHOOK'\nos.environ = environ({'PATH': '/usr/local/bin', 'MYSQL_ROOT_PW': 'r00t-Pw!', 'JWT_SALT': 's4lt-9f8e', 'ATM_PIN': '993184'})",
    ['r00t-Pw!', 's4lt-9f8e', '993184'],
  ),
  m(
    'encoded',
    'a docker inspect Env array',
    'container exited (1); Env: ["SMTP_PASSWD=m41l-P4ss","API_SIGNING_SECRET=sgn_7f6e5d4c","ADMIN_PASSCODE=778812","WALLET_SEED=green-apple-42"]',
    ['m41l-P4ss', 'sgn_7f6e5d4c', '778812', 'green-apple-42'],
  ),
  m(
    'encoded',
    'a YAML block scalar holding a password',
    'yaml: unmarshal errors in config.yaml:\n  line 12: field passwrd not found\n  database:\n    password: |\n      Bl0ck-Sc4lar-Pw\n    port: 5432',
    ['Bl0ck-Sc4lar-Pw'],
  ),
  m(
    'encoded',
    'a pino log line with an escaped authorization header',
    `{"level":50,"msg":"request failed","req":{"headers":{"authorization":"Basic ${base64('ci-bot:P1pel1ne!')}"}}}`,
    [base64('ci-bot:P1pel1ne!')],
  ),
  m(
    'encoded',
    'INI dump inside an escaped JSON string',
    JSON.stringify({
      error: 'cannot parse config',
      config: '[database]\nuser = app\npassword = Esc4pedN3wline\n',
    }),
    ['Esc4pedN3wline'],
  ),

  // ——— SQL and database errors ———
  m(
    'database',
    'MySQL CALL of a missing procedure',
    "ER_SP_DOES_NOT_EXIST: PROCEDURE shop.refund_order does not exist\nsql: CALL refund_order(88123, 'card_4242', 'jane.roe@example.net')",
    ['refund_order(88123', 'card_4242', 'jane.roe@example.net', 'shop.refund_order'],
  ),
  m(
    'database',
    'lower-case call with a free-text argument',
    "error: call billing.apply_credit(4471, 250.00, 'goodwill for outage') failed: procedure billing.apply_credit(integer, numeric, unknown) does not exist",
    ['goodwill for outage', 'billing.apply_credit', '4471, 250.00'],
  ),
  m(
    'database',
    'SQL Server EXEC of a stored procedure with parameters',
    "RequestError: Could not find stored procedure 'dbo.usp_GetSalary'.\nEXEC dbo.usp_GetSalary @EmployeeId = 1123, @TaxRef = N'AB-99-12-34-C'",
    ['usp_GetSalary', 'AB-99-12-34-C', '@EmployeeId = 1123'],
  ),
  m(
    'database',
    'lower-case exec sp_executesql',
    "Incorrect syntax near 'WHER'. Statement: exec sp_executesql N'select * from dbo.Customers WHER Email = @p0', N'@p0 nvarchar(4000)', @p0 = N'kim.lee@example.kr'",
    ['kim.lee@example.kr', 'dbo.Customers', 'sp_executesql'],
  ),
  m(
    'database',
    'MySQL REPLACE into a missing table',
    "ER_NO_SUCH_TABLE: Table 'crm.contacts_backup' doesn't exist\nREPLACE INTO contacts_backup (id, phone) VALUES (9, '+44 20 7946 0958')",
    ['contacts_backup', '+44 20 7946 0958'],
  ),
  m(
    'database',
    'multi-line INSERT … VALUES with parameters',
    [
      'QueryFailedError: value too long for type character varying(20)',
      'INSERT INTO "payments"',
      '  ("card_holder", "card_last4", "iban")',
      'VALUES',
      '  ($1, $2, $3)',
      '-- PARAMETERS: ["Hannah Schmidt","4242","DE89370400440532013000"]',
    ].join('\n'),
    ['"card_holder"', 'Hannah Schmidt', 'DE89370400440532013000', 'INSERT INTO "payments"'],
  ),
  m(
    'database',
    'a string literal across line breaks',
    'error: invalid byte sequence for encoding "UTF8": 0xe9 0x20 0x6d\nINSERT INTO notes (patient_id, body) VALUES (5521, \'Patient reports chest pain.\nDiagnosis: unstable angina, refer to cardiology\')',
    ['unstable angina', 'chest pain', 'patient_id'],
  ),
  m(
    'database',
    'knex lower-case multi-line insert',
    "insert into `users` (`email`, `phone`)\nvalues ('o.brien@example.ie', '+353 87 123 4567')\n - ER_DUP_ENTRY: Duplicate entry 'o.brien@example.ie' for key 'users.email'",
    ['o.brien@example.ie', '+353 87 123 4567'],
  ),
  m(
    'database',
    'lower-case update with Japanese identifiers',
    'update 顧客 set 電話 = \'090-1234-5678\' where 顧客id = 7 - relation "顧客" does not exist',
    ['090-1234-5678', '電話', '顧客'],
  ),
  m(
    'database',
    'UPDATE with German identifiers and parameters',
    'QueryFailedError: UPDATE "Bestellungen" SET "Zahlungsstatus" = $1 WHERE "Kunde" = $2 -- PARAMETERS: ["bezahlt","Jürgen Müller"]',
    ['Jürgen Müller', '"Zahlungsstatus"', 'Bestellungen'],
  ),
  m(
    'database',
    'lower-case insert with Cyrillic identifiers',
    "insert into заказы (клиент, телефон) values ('Иван Петров', '+7 912 345-67-89') — ошибка: повторяющееся значение ключа нарушает ограничение уникальности",
    ['Иван Петров', '+7 912 345-67-89', 'заказы'],
  ),
  m('database', 'pg missing relation', 'error: relation "secrets_table" does not exist', ['secrets_table']),
  m('database', 'pg invalid oid quoting the value', 'error: invalid input syntax for type oid: "hunter2"', [
    'hunter2',
  ]),
  m(
    'database',
    'pg invalid uuid quoting an email',
    'error: invalid input syntax for type uuid: "a.novak@example.cz"',
    ['a.novak@example.cz'],
  ),
  m(
    'database',
    'pg invalid enum value quoting a card',
    'error: invalid input value for enum payment_method: "visa 4111 1111 1111 1111"',
    ['4111 1111 1111 1111', 'visa 4111'],
  ),
  m('database', 'pg missing column', 'error: column "ssn_plaintext" does not exist', ['ssn_plaintext']),
  m('database', 'pg missing role', 'FATAL:  role "readonly_analyst" does not exist', ['readonly_analyst']),
  m('database', 'pg missing database', 'FATAL:  database "billing_prod_eu" does not exist', [
    'billing_prod_eu',
  ]),
  m(
    'database',
    'pg permission denied for an unquoted table',
    'error: permission denied for table salaries_2024',
    ['salaries_2024'],
  ),
  m(
    'database',
    'pg foreign key violation with its key',
    'insert or update on table "orders" violates foreign key constraint "orders_customer_id_fkey"\nDETAIL:  Key (customer_id)=(99123) is not present in table "customers".',
    ['99123', 'orders_customer_id_fkey'],
  ),
  m(
    'database',
    'pg check violation with the failing row',
    'new row for relation "accounts" violates check constraint "accounts_balance_check"\nDETAIL:  Failing row contains (311, Acme GmbH, -5000.00, DE44500105175407324931).',
    ['DE44500105175407324931', 'Acme GmbH'],
  ),
  m(
    'database',
    'pg syntax error quoting a literal and its LINE',
    "error: syntax error at or near \"'Tr0ub4dor'\"\nLINE 1: ...SET password = 'Tr0ub4dor' WHRE id = 3\n                         ^",
    ['Tr0ub4dor'],
  ),
  m(
    'database',
    'MySQL parse error quoting the statement',
    "ER_PARSE_ERROR: You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''s3cr3t-v4lue' WHERE user_id = 1' at line 1",
    ['s3cr3t-v4lue', 'user_id = 1'],
  ),
  m(
    'database',
    'MySQL incorrect value quoting an IBAN',
    "ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: Incorrect integer value: 'DE89 3704 0044 0532 0130 00' for column 'amount' at row 1",
    ['DE89 3704 0044 0532 0130 00'],
  ),
  m(
    'database',
    'MySQL unknown column',
    "ER_BAD_FIELD_ERROR: Unknown column 'credit_card_number' in 'field list'",
    ['credit_card_number'],
  ),
  m(
    'database',
    'SQL Server duplicate key value',
    "Violation of PRIMARY KEY constraint 'PK_Customers'. Cannot insert duplicate key in object 'dbo.Customers'. The duplicate key value is (anna.k@example.pl).",
    ['anna.k@example.pl', 'dbo.Customers'],
  ),
  m(
    'database',
    'Oracle missing table with a quoted owner',
    'ORA-00942: table or view "HR"."EMP_SALARIES" does not exist',
    ['EMP_SALARIES'],
  ),
  m(
    'database',
    'MongoDB duplicate key quoting a phone number',
    'MongoServerError: E11000 duplicate key error collection: crm.contacts index: phone_1 dup key: { phone: "+39 347 123 4567" }',
    ['+39 347 123 4567'],
  ),
  m(
    'database',
    'SQLite unique violation with the statement',
    "SqliteError: UNIQUE constraint failed: users.national_id (SQLITE_CONSTRAINT_UNIQUE) sql: INSERT INTO users (name, national_id) VALUES ('Wang Fang', '11010519491231002X')",
    ['Wang Fang', '11010519491231002X'],
  ),
  m(
    'database',
    'a multi-line lower-case CTE',
    "with active as (\n  select id, email from customers where status = 'active'\n)\nselect * from active where email like '%@globex.com' - canceling statement due to statement timeout",
    ['select id, email from customers', '%@globex.com'],
  ),
  m(
    'database',
    'Prisma raw query quoting a card number',
    'Raw query failed. Code: `22P02`. Message: `ERROR: invalid input syntax for type integer: "4532015112830366"`',
    ['4532015112830366'],
  ),
  m(
    'database',
    'Sequelize error with SQL and parameters',
    "SequelizeUniqueConstraintError: Validation error\n  sql: 'INSERT INTO `Users` (`id`,`email`,`passwordHash`) VALUES (DEFAULT,?,?);',\n  parameters: [ 'p.dubois@example.fr', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$Zm9vYmFy' ]",
    ['p.dubois@example.fr', '$argon2id$v=19$m=65536', 'passwordHash'],
  ),
  m(
    'database',
    'pg LINE context of a lower-case select',
    'error: column "sin" does not exist\nLINE 1: select name, sin from employees where sin = \'046 454 286\'\n                     ^',
    ['046 454 286', 'from employees'],
  ),
  m(
    'database',
    'drizzle update with parameters on the next line',
    'Failed query: update "customers" set "phone" = $1 where "id" = $2\nparams: +44 7700 900123,8812',
    ['+44 7700 900123'],
  ),

  // ——— Personal data ———
  m(
    'personal',
    'card number in groups with a CVC',
    'Adyen: Refused (FRAUD) for card 5555 5555 5555 4444 exp 03/27 cvc 737',
    ['5555 5555 5555 4444', 'cvc 737'],
  ),
  m(
    'personal',
    'card number with dashes and a CVV2',
    'Braintree::ProcessorDeclined: 2010 Card Issuer Declined CVV (card 4000-0566-5566-5556, CVV2: 123)',
    ['4000-0566-5566-5556', 'CVV2: 123'],
  ),
  m(
    'personal',
    'Amex number and security code',
    'Payment failed for 3782 822463 10005 (security code 4567 did not match)',
    ['3782 822463 10005', 'security code 4567'],
  ),
  m('personal', 'card number in one run', 'Stripe test: card 6011111111111117 was declined (do_not_honor)', [
    '6011111111111117',
  ]),
  m(
    'personal',
    'card and CVC in a JSON body',
    '{"error":"card_declined","payment_method":{"number":"5200828282828210","cvc":"321","exp":"12/29"}}',
    ['5200828282828210', '"cvc":"321"'],
  ),
  m('personal', 'JCB number in a fraud log', 'fraud check: pan=3566002020360505 score=97', [
    '3566002020360505',
  ]),
  m('personal', '19-digit Visa number', 'Issuer declined 4917 6100 0000 0000 003 (insufficient funds)', [
    '4917 6100 0000 0000 003',
  ]),
  m(
    'personal',
    'IBAN in groups',
    'SEPA Direct Debit rejected (AC04 account closed): IBAN DE89 3704 0044 0532 0130 00, mandate MNDT-2024-00931',
    ['DE89 3704 0044 0532 0130 00'],
  ),
  m(
    'personal',
    'IBAN in one run, German message',
    'Bankverbindung ungültig: GB82WEST12345698765432 ist gesperrt',
    ['GB82WEST12345698765432'],
  ),
  m(
    'personal',
    'French IBAN with letters, French message',
    'Virement refusé : le compte FR14 2004 1010 0505 0001 3M02 606 est clôturé',
    ['FR14 2004 1010 0505 0001 3M02 606'],
  ),
  m('personal', 'lower-case IBAN', 'payout failed for iban nl91abna0417164300', ['nl91abna0417164300']),
  m(
    'personal',
    'Spanish IBAN, Spanish message',
    'Transferencia fallida: ES91 2100 0418 4502 0005 1332 (cuenta bloqueada)',
    ['ES91 2100 0418 4502 0005 1332'],
  ),
  m(
    'personal',
    'Swiss IBAN inside parentheses',
    'Payout to Zurich branch failed (CH9300762011623852957): beneficiary bank offline',
    ['CH9300762011623852957'],
  ),
  m('personal', 'US SSN with dashes', 'KYC check failed for applicant 512-43-7789 (name mismatch)', [
    '512-43-7789',
  ]),
  m(
    'personal',
    'US SSN without dashes after its label',
    'IRS e-file reject R0000-504-02: SSN 536902201 does not match the name control',
    ['536902201'],
  ),
  m(
    'personal',
    'US SSN with spaces in a JSON error',
    '{"field":"ssn","value":"412 65 9982","error":"already registered"}',
    ['412 65 9982'],
  ),
  m(
    'personal',
    'Chinese resident ID in a Chinese message',
    '实名认证失败：身份证号 11010519491231002X 与姓名不匹配',
    ['11010519491231002X'],
  ),
  m(
    'personal',
    'Chinese resident ID in an English message',
    'identity verification failed for resident id 320583198706206625 (provider timeout)',
    ['320583198706206625'],
  ),
  m(
    'personal',
    'Chinese resident ID with a lower-case check letter',
    'ID card 51010820000101001x rejected by the provider',
    ['51010820000101001x'],
  ),
  m(
    'personal',
    'UK phone number in a Twilio error',
    "Twilio error 21211: The 'To' number +44 20 7946 0958 is not a valid phone number.",
    ['+44 20 7946 0958'],
  ),
  m(
    'personal',
    'US phone number with parentheses',
    'SMS delivery failed to +1 (415) 555-0134: carrier violation',
    ['(415) 555-0134'],
  ),
  m(
    'personal',
    'German phone number, German message',
    'Rückruf fehlgeschlagen: +49 30 901820 ist nicht erreichbar',
    ['+49 30 901820'],
  ),
  m('personal', 'Chinese mobile number', '短信发送失败：+86 138 0013 8000 号码无效', ['+86 138 0013 8000']),
  m('personal', 'French number with 00 prefix', 'Appel impossible vers 0033 6 12 34 56 78', [
    '0033 6 12 34 56 78',
  ]),
  m('personal', 'E.164 number in one run', 'WhatsApp template rejected for recipient +971501234567', [
    '+971501234567',
  ]),
  m('personal', 'Japanese number with dashes', '+81-90-1234-5678 への送信に失敗しました', [
    '+81-90-1234-5678',
  ]),
  m(
    'personal',
    'email with a German unicode domain',
    'SMTPUTF8 required: 550 5.6.7 <jürgen@müller-bau.de> mailbox unavailable',
    ['jürgen@müller-bau.de'],
  ),
  m('personal', 'email in Chinese script', '邮件发送失败：用户@例子.广告 不存在', ['用户@例子.广告']),
  m(
    'personal',
    'email with an IDN domain',
    'Invalid recipient info@bücher.example (domain has no MX record)',
    ['info@bücher.example'],
  ),
  m('personal', 'Cyrillic email', 'Не удалось отправить письмо на иван@пример.рф', ['иван@пример.рф']),
  m(
    'personal',
    'GraphQL mutation quoting personal values',
    'GraphQL error: Cannot query field "score" on type "Customer".\nmutation { updateCustomer(id: 42, input: { fullName: "Olivia Bennett", dateOfBirth: "1988-04-17", note: "prefers evening calls" }) { id score } }',
    ['Olivia Bennett', '1988-04-17', 'prefers evening calls'],
  ),
  m(
    'personal',
    'GraphQL variable error quoting the value',
    'Variable "$input" got invalid value { fullName: "Lucas Martin", taxId: "FR40303265045" }; Field "taxId" is not defined by type "CustomerInput".',
    ['Lucas Martin', 'FR40303265045'],
  ),
  m(
    'personal',
    'GraphQL named query in an Apollo error',
    'Response not successful: Received status code 400, query GetOrder { order(trackingCode: "TRK-55-8812", lastName: "Nakamura") { id status } }',
    ['TRK-55-8812', 'Nakamura'],
  ),
  m(
    'personal',
    'validation issue quoting an IBAN',
    'Expected a number, received "DE89370400440532013000" at payout.amount',
    ['DE89370400440532013000'],
  ),
  m('personal', 'CVV as a JSON number', '{"error":"invalid_cvv","card":{"last4":"4242","cvv": 912}}', [
    '"cvv": 912',
  ]),

  // ——— Internals ———
  m(
    'internal',
    'Consul service name in a DNS error',
    'dial tcp: lookup vault.service.dc1.consul on 127.0.0.53:53: no such host',
    ['vault.service.dc1.consul', '127.0.0.53'],
  ),
  m(
    'internal',
    'Consul host and port in a gRPC error',
    'grpc: addrConn.createTransport failed to connect to {payments.service.consul:8502}',
    ['payments.service.consul'],
  ),
  m('internal', 'EC2 internal hostname', 'getaddrinfo ENOTFOUND ip-10-0-12-34.eu-west-1.compute.internal', [
    'ip-10-0-12-34',
  ]),
  m('internal', 'single-label host in ENOTFOUND', 'Error: getaddrinfo ENOTFOUND ledgerdb', ['ledgerdb']),
  m(
    'internal',
    'bare host and an unusual port',
    'Redis connection to cache01:11311 failed - connect ECONNREFUSED',
    ['cache01'],
  ),
  m(
    'internal',
    'a broker list of host:port',
    'KafkaJSConnectionError: Connection error: connect ECONNREFUSED (brokers: kafka1:9094,kafka2:9094,kafka3:9094)',
    ['kafka1', 'kafka2', 'kafka3'],
  ),
  m(
    'internal',
    'an .intra host without a port',
    'SOAP fault: could not resolve erp-core.intra (WSDL fetch)',
    ['erp-core.intra'],
  ),
  m(
    'internal',
    'a .k8s upstream in an Envoy error',
    'upstream connect error or disconnect/reset before headers. reset reason: connection failure (upstream: orders.prod.k8s)',
    ['orders.prod.k8s'],
  ),
  m('internal', 'a .private host', 'TLS handshake failed with ldap01.acme.private', ['ldap01.acme.private']),
  m(
    'internal',
    'host named in a JSON error',
    '{"code":"ECONNRESET","host":"billing-core","port":9443,"syscall":"read"}',
    ['billing-core'],
  ),
  m('internal', 'IPv6 address in brackets with a port', 'connect ECONNREFUSED [fd12:3456:789a:1::5]:5432', [
    'fd12:3456:789a:1::5',
  ]),
  m('internal', 'IPv4-mapped IPv6 address', 'client ::ffff:10.20.1.7 rejected by ACL', ['10.20.1.7']),
  m(
    'internal',
    'quoted UNC path with spaces',
    "EPERM: operation not permitted, open '\\\\fs01.acme.local\\Shared Docs\\HR\\Salaries 2024.xlsx'",
    ['Shared Docs', 'Salaries 2024', 'fs01.acme.local'],
  ),
  m(
    'internal',
    'unquoted UNC path with spaces',
    'The network path was not found: \\\\NAS-BACKUP\\Finance Team\\Q3 Forecast.xlsx',
    ['Finance Team', 'Q3 Forecast', 'NAS-BACKUP'],
  ),
  m('internal', '%APPDATA% path', 'Failed to read config from %APPDATA%\\AcmeSync\\accounts.json', [
    'AcmeSync',
    'accounts.json',
  ]),
  m(
    'internal',
    '%USERPROFILE% path',
    'Could not load credentials file %USERPROFILE%\\.aws\\credentials (access denied)',
    ['.aws\\credentials'],
  ),
  m(
    'internal',
    '$HOME path',
    'open $HOME/.config/gcloud/application_default_credentials.json: permission denied',
    ['.config/gcloud', 'application_default_credentials'],
  ),
  m('internal', 'home path of another user', 'stat ~deploy/.kube/config: no such file or directory', [
    '~deploy',
    '.kube/config',
  ]),
  m(
    'internal',
    'quoted macOS path with spaces',
    "EACCES: permission denied, open '/Users/Sofia Rossi/Library/Application Support/Acme/token.json'",
    ['Sofia Rossi', 'Application Support/Acme'],
  ),
  m(
    'internal',
    'Windows path with forward slashes and spaces',
    "Error: Cannot find module 'C:/Program Files/Acme Agent/plugins/vault.js'",
    ['Acme Agent', 'plugins/vault.js'],
  ),
  m(
    'internal',
    'Lambda error JSON with a trace array',
    '{"errorType":"TypeError","errorMessage":"Cannot read properties of undefined (reading \'total\')","trace":["TypeError: Cannot read properties of undefined (reading \'total\')","    at computeInvoice (/var/task/src/billing/invoice.js:77:31)","    at Runtime.handler (/var/task/index.js:12:18)"]}',
    ['computeInvoice', '/var/task/src/billing', 'Runtime.handler'],
  ),
  m(
    'internal',
    'pino log with a stack in escaped newlines',
    JSON.stringify({
      level: 50,
      msg: 'request failed',
      err: {
        type: 'Error',
        message: 'upstream timeout',
        stack:
          'Error: upstream timeout\n    at fetchRates (/srv/fx/rates.js:44:11)\n    at async Promise.all (index 2)',
      },
    }),
    ['fetchRates', '/srv/fx/rates.js'],
  ),
  m(
    'internal',
    'flattened one-line Node stack',
    'Error: ETIMEDOUT at Timeout._onTimeout (/app/node_modules/pg-pool/index.js:141:25) at listOnTimeout (node:internal/timers:569:17) at process.processTimers (node:internal/timers:512:7)',
    ['Timeout._onTimeout', 'pg-pool/index.js', 'listOnTimeout'],
  ),
  m(
    'internal',
    'flattened one-line Java stack',
    'java.lang.IllegalStateException: ledger closed at com.acme.ledger.LedgerService.post(LedgerService.java:212) at com.acme.api.PaymentsController.create(PaymentsController.java:88)',
    ['com.acme.ledger.LedgerService', 'PaymentsController.java:88'],
  ),
  m(
    'internal',
    'flattened one-line Python traceback',
    'Traceback (most recent call last): File "/srv/etl/jobs/sync_crm.py", line 41, in run KeyError: \'account_id\'',
    ['/srv/etl/jobs', 'sync_crm.py'],
  ),
  m(
    'internal',
    'flattened .NET stack',
    'System.NullReferenceException: Object reference not set to an instance of an object. at Acme.Billing.InvoiceService.Finalize(Int32 id) in C:\\build\\src\\Billing\\InvoiceService.cs:line 118',
    ['Acme.Billing.InvoiceService', 'InvoiceService.cs:line 118'],
  ),
  m(
    'internal',
    'Go panic inside escaped JSON',
    JSON.stringify({
      level: 'error',
      error:
        'panic: runtime error: index out of range [3] with length 3\n\ngoroutine 42 [running]:\nmain.(*Ledger).Post(...)\n\t/go/src/acme.io/ledger/post.go:88 +0x1d4',
    }),
    ['/go/src/acme.io/ledger', 'post.go:88', '(*Ledger).Post'],
  ),
  m('internal', 'host and unusual port in dial tcp', 'dial tcp pgbouncer:6432: connect: connection refused', [
    'pgbouncer',
  ]),
  m(
    'internal',
    'Java unknown single-label host',
    'java.net.UnknownHostException: ledgerhost01: Temporary failure in name resolution',
    ['ledgerhost01'],
  ),
  m(
    'internal',
    'admin share path with a user name',
    'Access is denied: \\\\FS02\\C$\\Users\\Kenji Watanabe\\Documents\\passwords.txt',
    ['Kenji Watanabe', 'passwords.txt'],
  ),
  // Classes met on unseen text, one file each.
  ...AZURE_CLIENT_SECRET_MESSAGES,
  ...NPM_AUTH_MESSAGES,
  ...ORACLE_CREDENTIAL_MESSAGES,
  ...SHORT_SELECT_MESSAGES,
  ...CHINESE_NAME_AND_PHONE_MESSAGES,
];
