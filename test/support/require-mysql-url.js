// npm run test:e2e:mysql runs the e2e suite on MySQL; without a server to run it on it must fail, not pass vacuously.
if (!process.env.TEST_DATABASE_URL) {
  console.error(
    'TEST_DATABASE_URL is not set; e.g. TEST_DATABASE_URL=mysql://root@127.0.0.1:3306/test npm run test:e2e:mysql',
  );
  process.exit(1);
}
