"""MiniStack as the deployed tier runs it: `python ministack_launcher.py` instead of `ministack`.

One deploy-time workaround, in the emulator and nowhere else: MiniStack 1.5.33's CloudFormation refuses an
AWS::CloudWatch::Alarm with `Metrics` (a metric-math alarm; CLM's Monitoring/WaveHalted is one) with "metric math is
not supported", so `cdk deploy` of the unchanged app would fail. Here such an alarm is stored with its definition
(Metrics, thresholds, actions) as AWS stores it; MiniStack evaluates no alarm of this kind, so it stays in
INSUFFICIENT_DATA. Every other resource goes through MiniStack unchanged.
"""
import sys
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

if __name__ == "__main__":
    sys.exit(main())
