/**
 * The part of the EC2 API the adapters use: every value they take from `@aws-sdk/client-ec2` comes through here (an
 * ESLint rule refuses it anywhere else; types may still be imported from the package).
 *
 * Why: the full EC2 client is one 2 MB module that costs a cold Lambda ≈ 130 ms of CPU to load. The SDK layer the
 * TaskFunctions run with (infra/sdk-layer/build-sdk-layer.ts) holds, in place of that module, one built from this
 * file's exports only (158 KB, ≈ 10 ms). Adding an export here adds it to the layer; TypeScript stops an adapter from using a command
 * the layer would lack.
 */
export {
  DeleteNetworkInterfaceCommand,
  DeleteSecurityGroupCommand,
  DeleteVolumeCommand,
  DescribeImagesCommand,
  DescribeLaunchTemplateVersionsCommand,
  DescribeVpcsCommand,
  EC2Client,
  TerminateInstancesCommand,
  paginateDescribeInstanceTypes,
  paginateDescribeInstances,
  paginateDescribeNetworkInterfaces,
  paginateDescribeSecurityGroups,
  paginateDescribeSubnets,
  paginateDescribeVolumes,
} from '@aws-sdk/client-ec2';
