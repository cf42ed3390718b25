"""Correction 3 of ministack_launcher.py: Auto Scaling groups that launch and terminate EC2 instances, as AWS's do.

MiniStack 1.5.33's groups keep instance records of their own that EC2 does not know, a group created by CloudFormation
has none, and TerminateInstanceInAutoScalingGroup does not exist: a node-pool roll cannot run. Here a group's desired
capacity is met with EC2 instances (MiniStack's, so DescribeInstances finds them) launched from the group's launch
template version (image, type, user data, instance profile, security groups; in the group's subnets, one zone after
another), tagged as AWS tags them (`aws:autoscaling:groupName`, `aws:ec2launchtemplate:id|version`, the group's tags
with PropagateAtLaunch). A later template version leaves running instances on theirs. Scale-in terminates instances of
an older template version first, then the newest. TerminateInstanceInAutoScalingGroup terminates one instance and
either lowers the desired capacity (refused below the minimum, as AWS refuses it) or launches a replacement.
"""
import time
from xml.sax.saxutils import escape

from ministack.core.responses import get_region, new_uuid, now_iso
from ministack.services import autoscaling as asg
from ministack.services import ec2
from ministack.services.cloudformation import provisioners


def _template_version(spec):
    spec = spec or {}
    templates = ec2._launch_templates
    lt = templates.get(spec.get("LaunchTemplateId", "")) or next(
        (t for t in templates.values() if t.get("LaunchTemplateName") == spec.get("LaunchTemplateName")), None)
    if not lt:
        return None, None
    wanted = str(spec.get("Version") or "$Default")
    number = {"$Latest": lt.get("LatestVersionNumber"), "$Default": lt.get("DefaultVersionNumber")}.get(wanted, wanted)
    version = next((v for v in lt.get("Versions", []) if str(v.get("VersionNumber")) == str(number)), None)
    return lt, version


def _launch(group, count):
    lt, version = _template_version(group.get("LaunchTemplate"))
    data = (version or {}).get("LaunchTemplateData") or {}
    subnets = [s.strip() for s in (group.get("VPCZoneIdentifier") or "").split(",") if s.strip()]
    subnets = subnets or [ec2._DEFAULT_SUBNET_ID]
    profile = None
    wanted_profile = data.get("IamInstanceProfile") or {}
    if wanted_profile:
        profile, _ = ec2._resolve_iam_instance_profile(
            iam_arn=wanted_profile.get("Arn", ""), iam_name=wanted_profile.get("Name", ""), allow_missing=True)
    for _ in range(count):
        subnet = subnets[len(group["Instances"]) % len(subnets)]
        instance = ec2._launch_instances_internal(
            image_id=data.get("ImageId") or "ami-00000000",
            instance_type=data.get("InstanceType") or "t3.micro",
            subnet_id=subnet,
            count=1,
            user_data=data.get("UserData") or "",
            sg_ids=list(data.get("SecurityGroupIds") or []) or None,
            iam_profile=profile,
        )[0]
        zone = ec2._subnets.get(subnet, {}).get("AvailabilityZone") or f"{get_region()}a"
        instance["Placement"]["AvailabilityZone"] = zone
        tags = [{"Key": t["Key"], "Value": t.get("Value", "")} for t in group.get("Tags", []) if t.get("PropagateAtLaunch")]
        tags.append({"Key": "aws:autoscaling:groupName", "Value": group["AutoScalingGroupName"]})
        template = {}
        if lt and version:
            tags.append({"Key": "aws:ec2launchtemplate:id", "Value": lt["LaunchTemplateId"]})
            tags.append({"Key": "aws:ec2launchtemplate:version", "Value": str(version["VersionNumber"])})
            template = {"LaunchTemplateId": lt["LaunchTemplateId"], "LaunchTemplateName": lt["LaunchTemplateName"],
                        "Version": str(version["VersionNumber"])}
        ec2._tags[instance["InstanceId"]] = tags
        group["Instances"].append({
            "InstanceId": instance["InstanceId"],
            "LifecycleState": "InService",
            "HealthStatus": "Healthy",
            "AvailabilityZone": zone,
            "ProtectedFromScaleIn": group.get("NewInstancesProtectedFromScaleIn", False),
            "LaunchTemplate": template,
            "LaunchConfigurationName": group.get("LaunchConfigurationName", ""),
        })


def _terminate_instance(instance_id):
    instance = ec2._instances.get(instance_id)
    if instance and instance["State"]["Name"] != "terminated":
        instance["State"] = {"Code": 48, "Name": "terminated"}
        instance["_terminated_at"] = time.time()


def _reconcile_instances(group):
    desired = group["DesiredCapacity"]
    _, current = _template_version(group.get("LaunchTemplate"))
    current_number = str((current or {}).get("VersionNumber", ""))
    while len(group["Instances"]) > desired:
        outdated = [i for i in group["Instances"] if str((i.get("LaunchTemplate") or {}).get("Version")) != current_number]
        gone = outdated[0] if outdated else group["Instances"][-1]
        group["Instances"].remove(gone)
        _terminate_instance(gone["InstanceId"])
    if len(group["Instances"]) < desired:
        _launch(group, desired - len(group["Instances"]))


def _terminate_instance_in_group(params):
    instance_id = asg._p(params, "InstanceId")
    decrement = asg._p(params, "ShouldDecrementDesiredCapacity").lower() == "true"
    group = next((g for g in asg._asgs.values() if any(i["InstanceId"] == instance_id for i in g["Instances"])), None)
    if group is None:
        return asg._error("ValidationError", f"Instance Id not found - No managed instance found for instance ID: {instance_id}")
    if decrement and group["DesiredCapacity"] - 1 < group["MinSize"]:
        return asg._error(
            "ValidationError",
            f"Currently, desiredSize equals minSize ({group['MinSize']}). Terminating instance without replacement "
            "will violate group's min size constraint. Either set shouldDecrementDesiredCapacity flag to false or "
            "lower group's min size.")
    group["Instances"] = [i for i in group["Instances"] if i["InstanceId"] != instance_id]
    _terminate_instance(instance_id)
    if decrement:
        group["DesiredCapacity"] -= 1
        cause = "shrinking the capacity from {} to {}".format(group["DesiredCapacity"] + 1, group["DesiredCapacity"])
    else:
        _reconcile_instances(group)
        cause = "an instance was taken out of service in response to a user request"
    activity = (
        f"<ActivityId>{new_uuid()}</ActivityId>"
        f"<AutoScalingGroupName>{escape(group['AutoScalingGroupName'])}</AutoScalingGroupName>"
        f"<Description>Terminating EC2 instance: {escape(instance_id)}</Description>"
        f"<Cause>At {now_iso()} {escape(cause)}.</Cause>"
        f"<StartTime>{now_iso()}</StartTime><StatusCode>InProgress</StatusCode><Progress>0</Progress>"
    )
    return asg._xml(200, "TerminateInstanceInAutoScalingGroupResponse",
                    f"<TerminateInstanceInAutoScalingGroupResult><Activity>{activity}</Activity>"
                    "</TerminateInstanceInAutoScalingGroupResult>")


def _terminating(delete):
    def wrapped(*args, **kwargs):
        name = args[0] if args and isinstance(args[0], str) else asg._p(args[0], "AutoScalingGroupName")
        for instance in (asg._asgs.get(name) or {}).get("Instances", []):
            _terminate_instance(instance["InstanceId"])
        return delete(*args, **kwargs)
    return wrapped


def _reconciled(provision):
    def wrapped(*args, **kwargs):
        physical_id, attributes = provision(*args, **kwargs)
        if physical_id in asg._asgs:
            _reconcile_instances(asg._asgs[physical_id])
        return physical_id, attributes
    return wrapped


def install():
    asg._reconcile_instances = _reconcile_instances
    asg._ACTION_MAP["TerminateInstanceInAutoScalingGroup"] = _terminate_instance_in_group
    asg._ACTION_MAP["DeleteAutoScalingGroup"] = _terminating(asg._ACTION_MAP["DeleteAutoScalingGroup"])
    handlers = provisioners._RESOURCE_HANDLERS["AWS::AutoScaling::AutoScalingGroup"]
    provisioners._asg_create = _reconciled(provisioners._asg_create)
    provisioners._asg_delete = _terminating(provisioners._asg_delete)
    handlers["create"] = provisioners._asg_create
    handlers["update"] = _reconciled(handlers["update"])
    handlers["delete"] = provisioners._asg_delete
