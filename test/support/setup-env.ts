// Environment every test runs with: no credential probing, no telemetry, no Node-version nags.
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.CDK_DISABLE_CLI_TELEMETRY = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_DEV = process.env.POWERTOOLS_DEV ?? 'false';
process.env.POWERTOOLS_LOG_LEVEL = process.env.POWERTOOLS_LOG_LEVEL ?? 'SILENT';
