// RUN: infer-shapes
// ai.onnx.ml ops (ops/ml.rs): elementwise transforms keep the shape;
// ArrayFeatureExtractor picks along the last axis, OneHotEncoder adds one,
// FeatureVectorizer sums the input widths; classifiers give [N] labels and
// [N, classes] scores, regressors and tree ensembles [N, targets]; ZipMap makes a sequence of
// maps; the map consumers' rank is left open.
onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.ml" = 5}}
onnx.graph "ml"(%x: tensor<"N"x4xf32>, %names: tensor<"N"xstring>, %ids: tensor<"N"xi64>, %idx: tensor<2xi64>, %codes: tensor<"N"x2xi64>, %a: tensor<"N"x2xf64>, %b: tensor<"N"x3xf64>, %probs: tensor<"N"x3xf32>, %counts: !onnx.map<i64, tensor<f32>>, %words: !onnx.map<string, tensor<f32>>) -> () {
  %bin = "onnx_ml.Binarizer"(%x) {threshold = 0.5} : (tensor<"N"x4xf32>) -> !onnx.unknown
  %scaled = "onnx_ml.Scaler"(%x) {offset = [0.5], scale = [2.0]} : (tensor<"N"x4xf32>) -> !onnx.unknown
  %norm = "onnx_ml.Normalizer"(%x) {norm = "L2"} : (tensor<"N"x4xf32>) -> !onnx.unknown
  %imputed = "onnx_ml.Imputer"(%x) {imputed_value_floats = [0.0], replaced_value_float = nan} : (tensor<"N"x4xf32>) -> !onnx.unknown
  %mapped = "onnx_ml.CategoryMapper"(%names) {cats_int64s = [1, 2], cats_strings = ["a", "b"]} : (tensor<"N"xstring>) -> !onnx.unknown
  %encoded = "onnx_ml.LabelEncoder"(%ids) {keys_int64s = [1, 2], values_strings = ["one", "two"]} : (tensor<"N"xi64>) -> !onnx.unknown
  %picked = "onnx_ml.ArrayFeatureExtractor"(%x, %idx) : (tensor<"N"x4xf32>, tensor<2xi64>) -> !onnx.unknown
  %onehot = "onnx_ml.OneHotEncoder"(%codes) {cats_int64s = [1, 2, 3]} : (tensor<"N"x2xi64>) -> !onnx.unknown
  %features = "onnx_ml.FeatureVectorizer"(%a, %b) {inputdimensions = [2, 3]} : (tensor<"N"x2xf64>, tensor<"N"x3xf64>) -> !onnx.unknown
  %zipped = "onnx_ml.ZipMap"(%probs) {classlabels_int64s = [7, 8, 9]} : (tensor<"N"x3xf32>) -> !onnx.unknown
  %cast = "onnx_ml.CastMap"(%counts) {cast_to = "TO_INT64"} : (!onnx.map<i64, tensor<f32>>) -> !onnx.unknown
  %vectorized = "onnx_ml.DictVectorizer"(%words) {string_vocabulary = ["a", "b", "c"]} : (!onnx.map<string, tensor<f32>>) -> !onnx.unknown
  %label, %scores = "onnx_ml.LinearClassifier"(%x) {classlabels_ints = [0, 1], coefficients = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], intercepts = [0.0, 0.0]} : (tensor<"N"x4xf32>) -> (!onnx.unknown, !onnx.unknown)
  %regressed = "onnx_ml.LinearRegressor"(%x) {coefficients = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], targets = 2} : (tensor<"N"x4xf32>) -> !onnx.unknown
  %svr = "onnx_ml.SVMRegressor"(%x) {coefficients = [1.0], kernel_params = [0.1, 0.0, 3.0], kernel_type = "LINEAR", n_supports = 1, support_vectors = [1.0, 2.0, 3.0, 4.0], rho = [0.0]} : (tensor<"N"x4xf32>) -> !onnx.unknown
  %forest = "onnx_ml.TreeEnsemble"(%x) {leaf_targetids = [0, 1], leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 2, nodes_falseleafs = [1], nodes_falsenodeids = [1], nodes_featureids = [0], nodes_modes = dense<[0]> : tensor<1xui8>, nodes_splits = dense<[0.5]> : tensor<1xf32>, nodes_trueleafs = [1], nodes_truenodeids = [0], tree_roots = [0]} : (tensor<"N"x4xf32>) -> !onnx.unknown
  onnx.return
}

// CHECK: onnx.model {ir_version = 10, opset_imports = {"" = 21, "ai.onnx.ml" = 5}}
// CHECK-NEXT: onnx.graph "ml"(%x: tensor<"N"x4xf32>, %names: tensor<"N"xstring>, %ids: tensor<"N"xi64>, %idx: tensor<2xi64>, %codes: tensor<"N"x2xi64>, %a: tensor<"N"x2xf64>, %b: tensor<"N"x3xf64>, %probs: tensor<"N"x3xf32>, %counts: !onnx.map<i64, tensor<f32>>, %words: !onnx.map<string, tensor<f32>>) -> () {
// CHECK-NEXT:   %bin = "onnx_ml.Binarizer"(%x) {threshold = 0.5} : (tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
// CHECK-NEXT:   %scaled = "onnx_ml.Scaler"(%x) {offset = [0.5], scale = [2.0]} : (tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
// CHECK-NEXT:   %norm = "onnx_ml.Normalizer"(%x) {norm = "L2"} : (tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
// CHECK-NEXT:   %imputed = "onnx_ml.Imputer"(%x) {imputed_value_floats = [0.0], replaced_value_float = nan} : (tensor<"N"x4xf32>) -> tensor<"N"x4xf32>
// CHECK-NEXT:   %mapped = "onnx_ml.CategoryMapper"(%names) {cats_int64s = [1, 2], cats_strings = ["a", "b"]} : (tensor<"N"xstring>) -> tensor<"N"xi64>
// CHECK-NEXT:   %encoded = "onnx_ml.LabelEncoder"(%ids) {keys_int64s = [1, 2], values_strings = ["one", "two"]} : (tensor<"N"xi64>) -> tensor<"N"xstring>
// CHECK-NEXT:   %picked = "onnx_ml.ArrayFeatureExtractor"(%x, %idx) : (tensor<"N"x4xf32>, tensor<2xi64>) -> tensor<"N"x2xf32>
// CHECK-NEXT:   %onehot = "onnx_ml.OneHotEncoder"(%codes) {cats_int64s = [1, 2, 3]} : (tensor<"N"x2xi64>) -> tensor<"N"x2x3xf32>
// CHECK-NEXT:   %features = "onnx_ml.FeatureVectorizer"(%a, %b) {inputdimensions = [2, 3]} : (tensor<"N"x2xf64>, tensor<"N"x3xf64>) -> tensor<"N"x5xf32>
// CHECK-NEXT:   %zipped = "onnx_ml.ZipMap"(%probs) {classlabels_int64s = [7, 8, 9]} : (tensor<"N"x3xf32>) -> !onnx.seq<!onnx.map<i64, tensor<f32>>>
// CHECK-NEXT:   %cast = "onnx_ml.CastMap"(%counts) {cast_to = "TO_INT64"} : (!onnx.map<i64, tensor<f32>>) -> tensor<1x?xi64>
// CHECK-NEXT:   %vectorized = "onnx_ml.DictVectorizer"(%words) {string_vocabulary = ["a", "b", "c"]} : (!onnx.map<string, tensor<f32>>) -> tensor<1x3xf32>
// CHECK-NEXT:   %label, %scores = "onnx_ml.LinearClassifier"(%x) {classlabels_ints = [0, 1], coefficients = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], intercepts = [0.0, 0.0]} : (tensor<"N"x4xf32>) -> (tensor<"N"xi64>, tensor<"N"x2xf32>)
// CHECK-NEXT:   %regressed = "onnx_ml.LinearRegressor"(%x) {coefficients = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], targets = 2} : (tensor<"N"x4xf32>) -> tensor<"N"x2xf32>
// CHECK-NEXT:   %svr = "onnx_ml.SVMRegressor"(%x) {coefficients = [1.0], kernel_params = [0.1, 0.0, 3.0], kernel_type = "LINEAR", n_supports = 1, support_vectors = [1.0, 2.0, 3.0, 4.0], rho = [0.0]} : (tensor<"N"x4xf32>) -> tensor<"N"x1xf32>
// CHECK-NEXT:   %forest = "onnx_ml.TreeEnsemble"(%x) {leaf_targetids = [0, 1], leaf_weights = dense<[1.0, 2.0]> : tensor<2xf32>, n_targets = 2, nodes_falseleafs = [1], nodes_falsenodeids = [1], nodes_featureids = [0], nodes_modes = dense<[0]> : tensor<1xui8>, nodes_splits = dense<[0.5]> : tensor<1xf32>, nodes_trueleafs = [1], nodes_truenodeids = [0], tree_roots = [0]} : (tensor<"N"x4xf32>) -> tensor<"N"x2xf32>
// CHECK-NEXT:   onnx.return
// CHECK-NEXT: }
