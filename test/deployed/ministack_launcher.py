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
"""
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

if __name__ == "__main__":
    sys.exit(main())
