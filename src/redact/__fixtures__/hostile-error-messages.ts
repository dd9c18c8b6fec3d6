/**
 * Error messages as real libraries and services produce them, full of things a model must never see.
 * `secrets` lists exact fragments that must not survive redaction.
 *
 * Every credential here is fake. Provider-format keys are assembled from parts so that secret scanners
 * (GitHub push protection and the like) do not mistake this file for a leak.
 */

export interface HostileErrorMessage {
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

export const HOSTILE_ERROR_MESSAGES: readonly HostileErrorMessage[] = [
  {
    name: 'knex unique violation with the failing query',
    message:
      'insert into "customers" ("email", "stripe_id") values ($1, $2) returning "id" - duplicate key value violates unique constraint "customers_email_key"',
    secrets: ['insert into "customers"', '"stripe_id"', 'values ($1, $2)'],
  },
  {
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
    name: 'pg not-null violation with the failing row',
    message:
      'null value in column "tax_id" of relation "vendors" violates not-null constraint\nDETAIL:  Failing row contains (7731, Initech LLC, null, 4111111111111111, 2024-03-01).',
    secrets: ['4111111111111111', 'Initech LLC'],
  },
  {
    name: 'pg auth failure quoting its connection string',
    message:
      'error: password authentication failed for user "svc_billing" (connection string: postgresql://svc_billing:Tr0ub4dor&3@billing-db.prod.internal:5432/billing?sslmode=require)',
    secrets: ['Tr0ub4dor&3', 'billing-db.prod.internal', 'postgresql://svc_billing'],
  },
  {
    name: 'Node ECONNREFUSED',
    message: 'connect ECONNREFUSED 10.0.3.7:5432',
    secrets: ['10.0.3.7'],
  },
  {
    name: 'Node ETIMEDOUT with a multi-line stack',
    message: [
      'Error: connect ETIMEDOUT 172.31.44.210:6379',
      '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
      '    at RedisClient.connect (/srv/app/node_modules/ioredis/built/Redis.js:262:25)',
    ].join('\n'),
    secrets: ['172.31.44.210', '/srv/app/node_modules', 'Redis.js:262', 'RedisClient.connect'],
  },
  {
    name: 'MongoDB SRV connection string',
    message:
      'MongoServerSelectionError: getaddrinfo ENOTFOUND cluster0-shard-00-01.x7k2p.mongodb.net (uri: mongodb+srv://app_user:pL9%23xQ2mZ@cluster0.x7k2p.mongodb.net/orders?retryWrites=true)',
    secrets: ['pL9%23xQ2mZ', 'cluster0-shard-00-01.x7k2p.mongodb.net', 'x7k2p', 'app_user'],
  },
  {
    name: 'Redis WRONGPASS with its URL',
    message:
      'ReplyError: WRONGPASS invalid username-password pair or user is disabled. url=redis://default:8f2KqLz0wP@redis-primary.cache.svc.cluster.local:6379/0',
    secrets: ['8f2KqLz0wP', 'redis-primary.cache.svc.cluster.local'],
  },
  {
    name: 'MySQL access denied',
    message:
      "Error: Access denied for user 'root'@'10.12.0.44' (using password: YES) [mysql://root:hunter2@10.12.0.44:3306/shop]",
    secrets: ['hunter2', '10.12.0.44'],
  },
  {
    name: 'MySQL duplicate entry',
    message: "ER_DUP_ENTRY: Duplicate entry '078-05-1120' for key 'patients.ssn_unique'",
    secrets: ['078-05-1120'],
  },
  {
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
    name: 'Prisma P1001 with an RDS endpoint',
    message:
      "Can't reach database server at `db-prod-1.c9akciq32.eu-west-1.rds.amazonaws.com`:`5432`\n\nPlease make sure your database server is running at `db-prod-1.c9akciq32.eu-west-1.rds.amazonaws.com`:`5432`.",
    secrets: ['db-prod-1.c9akciq32.eu-west-1.rds.amazonaws.com', 'c9akciq32'],
  },
  {
    name: 'TypeORM query with selected columns and parameters',
    message:
      'QueryFailedError: SELECT "User"."id" AS "User_id", "User"."ssn" AS "User_ssn" FROM "users" "User" WHERE "User"."email" = $1 -- PARAMETERS: ["bob@example.org"]',
    secrets: ['"User"."ssn"', 'FROM "users"', 'bob@example.org'],
  },
  {
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
    name: 'drizzle failed query',
    message:
      'Failed query: update "subscriptions" set "plan" = $1, "seats" = $2 where "subscriptions"."org_id" = $3\nparams: enterprise,250,org_91c2',
    secrets: ['update "subscriptions"', '"org_id"', '"seats"'],
  },
  {
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
    name: 'axios 403 with basic auth',
    message:
      'Error: Request failed with status code 403 (GET https://internal-tools.corp.acme.net/admin/export) Authorization: Basic YWRtaW46c3VwZXJzZWNyZXQ=',
    secrets: ['internal-tools.corp.acme.net', 'YWRtaW46c3VwZXJzZWNyZXQ='],
  },
  {
    name: 'AWS SDK AccessDenied with ARNs',
    message:
      'AccessDeniedException: User: arn:aws:iam::123456789012:user/ci-deployer is not authorized to perform: secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf because no identity-based policy allows the secretsmanager:GetSecretValue action',
    secrets: ['123456789012', 'ci-deployer', 'prod/db-AbCdEf'],
  },
  {
    name: 'AWS SDK invalid credentials',
    message: `InvalidClientTokenId: The security token included in the request is invalid. (AccessKeyId: ${AWS_ACCESS_KEY_ID}, SecretAccessKey: ${AWS_SECRET_ACCESS_KEY})`,
    secrets: [AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY],
  },
  {
    name: 'S3 presigned URL in NoSuchKey',
    message: `NoSuchKey: The specified key does not exist. url: https://acme-invoices-prod.s3.eu-central-1.amazonaws.com/2024/03/inv-20931.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${AWS_TEMP_KEY_ID}%2F20240301&X-Amz-Signature=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`,
    secrets: ['acme-invoices-prod', AWS_TEMP_KEY_ID, '9f86d081884c7d659a2feaa0c55ad015'],
  },
  {
    name: 'AWS credentials file dump',
    message: `Error loading profile "prod": [prod]\naws_access_key_id = ${AWS_TEMP_KEY_ID}\naws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}\naws_session_token = IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD`,
    secrets: [AWS_TEMP_KEY_ID, AWS_SECRET_ACCESS_KEY, 'IQoJb3JpZ2luX2VjEJr'],
  },
  {
    name: 'Stripe invalid live key',
    message: `StripeAuthenticationError: Invalid API Key provided: ${STRIPE_LIVE_KEY}`,
    secrets: [STRIPE_LIVE_KEY, '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HKk1Fh0DOSbCoVMdfMbn7hzVjQ'],
  },
  {
    name: 'Stripe restricted key and customer email',
    message: `StripePermissionError: The provided key '${STRIPE_RESTRICTED_KEY}' does not have access to customers (customer cus_PqR7sT, email billing@northwind-traders.com)`,
    secrets: [STRIPE_RESTRICTED_KEY, 'billing@northwind-traders.com'],
  },
  {
    name: 'OpenAI 401 with a project key',
    message: `401 Incorrect API key provided: ${OPENAI_PROJECT_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    secrets: [OPENAI_PROJECT_KEY, 'Xy9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT'],
  },
  {
    name: 'OpenAI legacy key in an env echo',
    message: `OpenAIError: The OPENAI_API_KEY environment variable is malformed: "${OPENAI_LEGACY_KEY}"`,
    secrets: [OPENAI_LEGACY_KEY, 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRs'],
  },
  {
    name: 'Anthropic key in a request dump',
    message: `AuthenticationError: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}} request headers: {"x-api-key":"${ANTHROPIC_KEY}","anthropic-version":"2023-06-01"}`,
    secrets: [ANTHROPIC_KEY, 'api03-Zq8Yw7Xv6Ut5'],
  },
  {
    name: 'GitHub classic and fine-grained tokens',
    message: `HttpError: Bad credentials - https://docs.github.com/rest (tried ${GITHUB_TOKEN}, then ${GITHUB_PAT})`,
    secrets: [GITHUB_TOKEN, GITHUB_PAT, '1a2B3c4D5e6F7g8H9i0J'],
  },
  {
    name: 'Slack bot token',
    message: `slack_webhook_error: invalid_auth while posting with ${SLACK_BOT_TOKEN} to channel C024BE91L`,
    secrets: [SLACK_BOT_TOKEN, '4190011228-AbCdEf'],
  },
  {
    name: 'Google API key',
    message: `API key not valid. Please pass a valid API key. [key=${GOOGLE_API_KEY}]`,
    secrets: [GOOGLE_API_KEY, 'SyD-9tSrke72PouQ'],
  },
  {
    name: 'JWT in a verification error',
    message: `JsonWebTokenError: jwt expired; token ${JWT} issued for user`,
    secrets: [JWT, 'eyJzdWIiOiJ1c3JfODgyMSIsImVtYWlsIjoiamFuZUBhY21lLmNvbSIsImV4cCI6MTcwMDAwMDAwMH0'],
  },
  {
    name: 'PEM private key, complete',
    message: `Error: error:1E08010C:DECODER routines::unsupported\nkey: -----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.join('\n')}\n-----END RSA PRIVATE KEY-----`,
    secrets: [...PEM_BODY, PEM_BODY.join('\n')],
  },
  {
    name: 'PEM private key, truncated inside a service-account JSON',
    message: `Failed to parse service account: {"type":"service_account","project_id":"acme-prod-381","private_key_id":"4f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6","private_key":"-----BEGIN PRIVATE KEY-----\\n${PEM_BODY[0]}\\n${PEM_BODY[1]}`,
    secrets: [PEM_BODY[0] ?? '', PEM_BODY[1] ?? '', '4f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6'],
  },
  {
    name: 'ENOENT with a Windows path',
    message:
      "Error: ENOENT: no such file or directory, open 'C:\\Users\\Priya Raman\\AppData\\Roaming\\acme-cli\\credentials.json'",
    secrets: ['Priya Raman', 'C:\\Users', 'AppData\\Roaming'],
  },
  {
    name: 'ENOENT with a unix path',
    message: "ENOENT: no such file or directory, stat '/home/deploy/.aws/credentials'",
    secrets: ['/home/deploy', '.aws/credentials'],
  },
  {
    name: 'EACCES with a home path',
    message: "EACCES: permission denied, open '~/.ssh/id_ed25519'",
    secrets: ['~/.ssh', 'id_ed25519'],
  },
  {
    name: 'EPERM with a UNC path',
    message: "EPERM: operation not permitted, open '\\\\fileserver01\\finance$\\payroll\\2024-03.xlsx'",
    secrets: ['fileserver01', 'finance$', 'payroll'],
  },
  {
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
    name: 'Python requests connection error with a vault token',
    message:
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='vault.ops.acme-internal.net', port=8200): Max retries exceeded with url: /v1/secret/data/prod/stripe?token=hvs.CAESIJ3x9Xk2kLm0pQrStUv (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3a2c1d9e50>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    secrets: ['vault.ops.acme-internal.net', 'hvs.CAESIJ3x9Xk2kLm0pQrStUv', '/v1/secret/data/prod/stripe'],
  },
  {
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
    name: 'Java PSQLException with frames',
    message: [
      'org.postgresql.util.PSQLException: ERROR: permission denied for table payroll',
      '\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2676)',
      '\tat com.acme.billing.AuditRepository.save(AuditRepository.java:88)',
    ].join('\n'),
    secrets: ['QueryExecutorImpl.java:2676', 'com.acme.billing.AuditRepository'],
  },
  {
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
    name: 'SMTP rejection with email and IPv6',
    message:
      'SMTP 550 5.1.1 <ceo@globex-corp.com>: Recipient address rejected (client [2001:db8:85a3::8a2e:370:7334])',
    secrets: ['ceo@globex-corp.com', '2001:db8:85a3::8a2e:370:7334'],
  },
  {
    name: 'Kubernetes service DNS failure',
    message: 'Error: getaddrinfo EAI_AGAIN payments-api.payments.svc.cluster.local',
    secrets: ['payments-api.payments.svc.cluster.local'],
  },
  {
    name: 'TLS error naming internal hosts',
    message:
      'Error: self-signed certificate in certificate chain (host: ldap.corp.globex.com, servername: ldap.corp.globex.com, local: 10.40.2.9)',
    secrets: ['ldap.corp.globex.com', '10.40.2.9'],
  },
  {
    name: 'environment validation dump',
    message:
      'Config validation failed: DATABASE_PASSWORD="correct horse battery staple" REDIS_TOKEN=r3d1s-t0k3n-x SESSION_SECRET=\'s3ss10n-s3cr3t\'',
    secrets: ['correct horse battery staple', 'r3d1s-t0k3n-x', 's3ss10n-s3cr3t'],
  },
  {
    name: 'OAuth error echoing the request body',
    message:
      '400 Bad Request: {"error":"invalid_grant","client_secret":"9c1f0e2d3b4a","refresh_token":"1//0gLm3n4o5p6q7r8s9t","username":"alice@contoso.com"}',
    secrets: ['9c1f0e2d3b4a', '1//0gLm3n4o5p6q7r8s9t', 'alice@contoso.com'],
  },
  {
    name: 'cookie header in a 401',
    message:
      'Error: 401 Unauthorized (Cookie: connect.sid=s%3AqX9mZ2kL7pR4.tY8uI3oP6aS1dF5gH0jK; csrftoken=Zx8Cv7Bn6Mm5)',
    secrets: ['s%3AqX9mZ2kL7pR4', 'Zx8Cv7Bn6Mm5'],
  },
  {
    name: 'libpq key=value DSN',
    message:
      'could not connect: host=pg-replica-2.data.acme.io port=5432 user=reporting password=Rp0rt!ng#2024 sslmode=verify-full',
    secrets: ['pg-replica-2.data.acme.io', 'Rp0rt!ng#2024'],
  },
  {
    name: 'Sentry DSN',
    message: 'Sentry init failed for dsn https://4f2e9c1b7a8d4e3f@o123456.ingest.sentry.io/789 (timeout)',
    secrets: ['4f2e9c1b7a8d4e3f', 'o123456.ingest.sentry.io'],
  },
  {
    name: 'credentials without a scheme',
    message: 'Login to registry failed for deploy:gh0st!Writer#9@registry.build.acme.io:5000 (unauthorized)',
    secrets: ['gh0st!Writer#9', 'registry.build.acme.io'],
  },
  {
    name: 'password hidden behind a zero-width space',
    message: 'Invalid credentials: pass\u200Bword=Qw3rty!2024 for admin',
    secrets: ['Qw3rty!2024'],
  },
  {
    name: 'bidi override hiding an email',
    message: 'Delivery failed for \u202Emoc.elpmaxe@nhoj\u202C and john.doe@example.com',
    secrets: ['john.doe@example.com', '\u202E'],
  },
];
