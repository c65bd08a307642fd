"""What a runtime's own ONNX import makes of a Resize node, one module per runtime that has one (named by its
declaration's ``Runtime.importer``): a module gives ``node_findings(node, call, found, target, training, path)``
returning (the findings for the target's release, the outcome of every release).
"""
