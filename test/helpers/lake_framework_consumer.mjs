// Streams a NEAR Lake bucket with the real near-lake-framework (npm) and prints every message it
// delivers as one JSON line. Usage: node lake_framework_consumer.mjs ENDPOINT BUCKET START_HEIGHT
import lake from 'near-lake-framework';

const [endpoint, bucket, start] = process.argv.slice(2);
const url = new URL(endpoint);
for await (const message of lake.stream({
  s3BucketName: bucket,
  s3RegionName: 'eu-central-1',
  startBlockHeight: Number(start),
  s3Endpoint: { protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: '/' },
  s3ForcePathStyle: true,
  blocksPreloadPoolSize: 10,
})) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}
