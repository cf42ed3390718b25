"""MiniStack as the deployed tier runs it: `python ministack_launcher.py` instead of `ministack`.

Corrections of MiniStack 1.5.33 toward what AWS does, in the emulator and nowhere else (the app is unchanged):

1. Its CloudFormation refuses an AWS::CloudWatch::Alarm with `Metrics` (a metric-math alarm; CLM's
   Monitoring/WaveHalted is one): "metric math is not supported", so `cdk deploy` of the app would fail. Here such an
   alarm is stored with its definition (Metrics, thresholds, actions) as AWS stores it. MiniStack evaluates no alarm
   of this kind, so it stays in INSUFFICIENT_DATA.
2. A Node.js handler's error reaches callers (Invoke, Step Functions) as `Runtime.HandlerError` whatever the error;
   AWS's Node.js runtime reports the error's `name` as errorType, and Step Functions matches Retry/Catch on it (CLM's
   ASL catches UpdateHeldError at a safe point, retries StackBusyError, ...). Here the worker sends the name along and
   the invocation's errorType is that name, as on AWS.
3. Its Auto Scaling groups launch no EC2 instances and cannot terminate one: ministack_autoscaling.py gives them
   instances, template versions and TerminateInstanceInAutoScalingGroup as AWS has them (a node-pool roll needs them).
4. DescribeInstanceAttribute answers `userData` with nothing, whatever the instance was launched with; AWS answers the
   user data (base64, as given at launch). A node's bootstrap reads its files bundle's address there.
5. Its CloudFormation has no AWS::EventSchemas::Registry nor ::Schema ("Unsupported resource type"), so `cdk deploy` of
   the app's event schema registry would fail. Here they are kept as AWS keeps them (Ref the ARN; RegistryName,
   SchemaName, SchemaVersion attributes), refusing what AWS refuses: a schema type other than OpenApi3 or
   JSONSchemaDraft4, content that is not JSON, a schema in a registry that does not exist, a name taken twice.
"""
import json
import sys
import threading
import time

from ministack.app import main
from ministack.core.responses import get_account_id, get_region
from ministack.services import cloudwatch as cw
from ministack.services.cloudformation import provisioners

_standard_record = provisioners._cw_metric_alarm_record


def _metric_math_record(name, props):
    if not props.get("Metrics"):
        return _standard_record(name, props)
    for required in ("ComparisonOperator", "EvaluationPeriods"):
        if props.get(required) in (None, ""):
            raise ValueError(f"{required} is required for AWS::CloudWatch::Alarm")
    if props.get("Threshold") is None and not props.get("ThresholdMetricId"):
        raise ValueError("Threshold or ThresholdMetricId is required for AWS::CloudWatch::Alarm")
    metrics = props["Metrics"]
    if not isinstance(metrics, list) or sum(1 for m in metrics if m.get("ReturnData", True)) != 1:
        raise ValueError("Metrics must hold exactly one expression or metric with ReturnData true")
    previous = cw._alarms.get(name, {})
    alarm = {
        "AlarmName": name,
        "AlarmArn": f"arn:aws:cloudwatch:{get_region()}:{get_account_id()}:alarm:{name}",
        "AlarmDescription": props.get("AlarmDescription", "") or "",
        "Metrics": metrics,
        "EvaluationPeriods": int(props["EvaluationPeriods"]),
        "ComparisonOperator": props["ComparisonOperator"],
        "TreatMissingData": props.get("TreatMissingData", "missing") or "missing",
        "StateValue": previous.get("StateValue", "INSUFFICIENT_DATA"),
        "StateReason": previous.get("StateReason", "Unchecked: Initial alarm creation"),
        "StateUpdatedTimestamp": previous.get("StateUpdatedTimestamp", int(time.time())),
        "ActionsEnabled": str(props.get("ActionsEnabled", True)).lower() not in ("false", "0", "no"),
        "AlarmActions": [str(a) for a in props.get("AlarmActions") or []],
        "OKActions": [str(a) for a in props.get("OKActions") or []],
        "InsufficientDataActions": [str(a) for a in props.get("InsufficientDataActions") or []],
        "Dimensions": [],
        "AlarmConfigurationUpdatedTimestamp": int(time.time()),
    }
    if props.get("Threshold") is not None:
        alarm["Threshold"] = float(props["Threshold"])
    if props.get("DatapointsToAlarm") is not None:
        alarm["DatapointsToAlarm"] = int(props["DatapointsToAlarm"])
    return alarm


provisioners._cw_metric_alarm_record = _metric_math_record

# --- 2. the error's name as errorType ------------------------------------------------------------------------------
from ministack.core import lambda_runtime  # noqa: E402
from ministack.services import lambda_svc  # noqa: E402

_SENT = 'status: "error", error: String(err.message || err), trace: err.stack || ""'
if _SENT not in lambda_runtime._NODEJS_WORKER_SCRIPT:
    raise SystemExit("ministack_launcher.py: the Node.js worker script changed; re-check correction 2 for this MiniStack")
lambda_runtime._NODEJS_WORKER_SCRIPT = lambda_runtime._NODEJS_WORKER_SCRIPT.replace(
    _SENT,
    'status: "error", error: String(err.message || err), errorType: String((err && err.name) || "Error"), '
    'trace: err.stack || ""',
)

_last = threading.local()
_worker_invoke = lambda_runtime.Worker.invoke


def _invoke(self, *args, **kwargs):
    result = _worker_invoke(self, *args, **kwargs)
    _last.error_type = result.get("errorType") if result.get("status") == "error" else None
    return result


lambda_runtime.Worker.invoke = _invoke
_execute_warm = lambda_svc._execute_function_warm


def _execute_function_warm(func, event, request_id):
    _last.error_type = None
    result = _execute_warm(func, event, request_id)
    body = result.get("body")
    named = getattr(_last, "error_type", None)
    if result.get("error") and isinstance(body, dict) and body.get("errorType") == "Runtime.HandlerError" and named:
        body["errorType"] = named
    return result


lambda_svc._execute_function_warm = _execute_function_warm

# --- 3. Auto Scaling groups with EC2 instances -----------------------------------------------------------------------
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import ministack_autoscaling  # noqa: E402

ministack_autoscaling.install()

# --- 4. an instance's user data -------------------------------------------------------------------------------------
from xml.sax.saxutils import escape  # noqa: E402

from ministack.services import ec2  # noqa: E402

_describe_attribute = ec2._ACTION_MAP["DescribeInstanceAttribute"]


def _describe_instance_attribute(p):
    instance = ec2._instances.get(ec2._p(p, "InstanceId"))
    if ec2._p(p, "Attribute") != "userData" or not instance:
        return _describe_attribute(p)
    data = instance.get("UserData") or ""
    value = f"<userData><value>{escape(data)}</value></userData>" if data else "<userData/>"
    return ec2._xml(200, "DescribeInstanceAttributeResponse", f"<instanceId>{escape(instance['InstanceId'])}</instanceId>{value}")


ec2._ACTION_MAP["DescribeInstanceAttribute"] = _describe_instance_attribute

_schema_registries = {}


def _registry_create(logical_id, props, stack_name):
    name = props.get("RegistryName") or f"{stack_name}-{logical_id}"
    if name in _schema_registries:
        raise ValueError(f"Registry {name} already exists")
    arn = f"arn:aws:schemas:{get_region()}:{get_account_id()}:registry/{name}"
    _schema_registries[name] = {"arn": arn, "schemas": {}}
    return arn, {"RegistryArn": arn, "RegistryName": name}


def _registry_delete(physical_id, props, *args):
    name = physical_id.rsplit("/", 1)[-1]
    registry = _schema_registries.get(name)
    if registry and registry["schemas"]:
        raise ValueError(f"Registry {name} still holds schemas")
    _schema_registries.pop(name, None)


def _schema_create(logical_id, props, stack_name):
    registry_name = props.get("RegistryName")
    registry = _schema_registries.get(registry_name)
    if registry is None:
        raise ValueError(f"Registry {registry_name} does not exist")
    if props.get("Type") not in ("OpenApi3", "JSONSchemaDraft4"):
        raise ValueError(f"Type must be OpenApi3 or JSONSchemaDraft4, got {props.get('Type')}")
    try:
        json.loads(props.get("Content") or "")
    except ValueError as error:
        raise ValueError(f"Content is not a valid schema: {error}")
    name = props.get("SchemaName") or f"{stack_name}-{logical_id}"
    if name in registry["schemas"]:
        raise ValueError(f"Schema {name} already exists in {registry_name}")
    arn = f"arn:aws:schemas:{get_region()}:{get_account_id()}:schema/{registry_name}/{name}"
    registry["schemas"][name] = {"content": props["Content"], "type": props["Type"], "version": "1"}
    return arn, {"SchemaArn": arn, "SchemaName": name, "SchemaVersion": "1"}


def _schema_delete(physical_id, props, *args):
    registry_name, name = physical_id.split(":schema/", 1)[-1].split("/", 1)
    _schema_registries.get(registry_name, {"schemas": {}})["schemas"].pop(name, None)


provisioners._RESOURCE_HANDLERS["AWS::EventSchemas::Registry"] = {"create": _registry_create, "delete": _registry_delete}
provisioners._RESOURCE_HANDLERS["AWS::EventSchemas::Schema"] = {"create": _schema_create, "delete": _schema_delete}

if __name__ == "__main__":
    sys.exit(main())
