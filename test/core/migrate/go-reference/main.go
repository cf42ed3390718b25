// Renders every *.tmpl of a fixtures directory with Go's text/template, as CLM does (missingkey=error),
// and writes what Go gives: <name>.out (the output) or <name>.err (the error). The outputs are checked in;
// test/core/migrate/go-fixtures.test.ts converts each fixture with `clm migrate`'s converter, renders it
// with our engine and compares byte for byte.
//
// Regenerate (Go installed):  go run ./test/core/migrate/go-reference test/core/migrate/fixtures
//
// The template functions are written here for the fixtures, after CLM's documented meanings
// (reference/clm-behaviour.md §4.4); they are not CLM's code.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/template"
)

// Instance mirrors the synthetic instance info CLM puts into .Values.InstanceInfo.
type Instance struct {
	InstanceType              string
	VCPU                      int64
	Memory                    int64
	InstanceStorageDevices    int64
	InstanceStorageDeviceSize int64
	Architecture              string
}

// AvailableStorage: instance storage scaled, or the root volume (GiB... as given) scaled when there is none.
func (i Instance) AvailableStorage(instanceScale float64, rootVolumeSize int64, rootScale float64) int64 {
	if i.InstanceStorageDevices == 0 {
		return int64(float64(rootVolumeSize) * rootScale)
	}
	return int64(instanceScale * float64(i.InstanceStorageDevices*i.InstanceStorageDeviceSize))
}

// MemoryFraction: percent of the memory, in bytes, integer arithmetic.
func (i Instance) MemoryFraction(percent int64) int64 {
	return percent * i.Memory / 100
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go-reference FIXTURES_DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	data := loadData(filepath.Join(dir, "data.json"))
	files, err := filepath.Glob(filepath.Join(dir, "*.tmpl"))
	check(err)
	sort.Strings(files)
	for _, file := range files {
		out, err := render(dir, filepath.Base(file), data, false)
		base := strings.TrimSuffix(file, ".tmpl")
		os.Remove(base + ".out")
		os.Remove(base + ".err")
		if err != nil {
			check(os.WriteFile(base+".err", []byte(err.Error()+"\n"), 0o644))
			fmt.Printf("%s: error\n", filepath.Base(file))
			continue
		}
		check(os.WriteFile(base+".out", []byte(out), 0o644))
		fmt.Printf("%s: %d bytes\n", filepath.Base(file), len(out))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func loadData(path string) map[string]interface{} {
	raw, err := os.ReadFile(path)
	check(err)
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var data map[string]interface{}
	check(decoder.Decode(&data))
	converted := numbers("", data).(map[string]interface{})
	values := converted["Values"].(map[string]interface{})
	info := values["InstanceInfo"].(map[string]interface{})
	values["InstanceInfo"] = Instance{
		InstanceType:              info["InstanceType"].(string),
		VCPU:                      info["VCPU"].(int64),
		Memory:                    info["Memory"].(int64),
		InstanceStorageDevices:    info["InstanceStorageDevices"].(int64),
		InstanceStorageDeviceSize: info["InstanceStorageDeviceSize"].(int64),
		Architecture:              info["Architecture"].(string),
	}
	return converted
}

// numbers gives JSON values CLM's Go types: int64 for integers (float64 otherwise), []string for lists of
// strings, map[string]string for config items and other maps of strings.
func numbers(key string, value interface{}) interface{} {
	switch v := value.(type) {
	case map[string]interface{}:
		strs := map[string]string{}
		for k, item := range v {
			v[k] = numbers(k, item)
			if s, ok := v[k].(string); ok {
				strs[k] = s
			}
		}
		if len(strs) == len(v) && (len(v) > 0 || key == "ConfigItems") {
			return strs
		}
		return v
	case []interface{}:
		allStrings := true
		for i, item := range v {
			v[i] = numbers("", item)
			if _, ok := v[i].(string); !ok {
				allStrings = false
			}
		}
		if allStrings && len(v) > 0 {
			strs := make([]string, len(v))
			for i, item := range v {
				strs[i] = item.(string)
			}
			return strs
		}
		return v
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, err := v.Float64()
		check(err)
		return f
	}
	return value
}

func render(dir, name string, data map[string]interface{}, nested bool) (string, error) {
	content, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return "", err
	}
	funcs := functions()
	funcs["manifestHash"] = func(sibling string) (string, error) {
		if nested {
			return "", fmt.Errorf("manifestHash is not reentrant")
		}
		out, err := render(dir, filepath.Clean(sibling), data, true)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%x", sha256.Sum256([]byte(out))), nil
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(funcs).Parse(string(content))
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		return "", err
	}
	return out.String(), nil
}

func functions() template.FuncMap {
	return template.FuncMap{
		"split": func(s, sep string) []string {
			if s == "" {
				return []string{}
			}
			return strings.Split(s, sep)
		},
		"join": join,
		"indent": func(n int, s string) string {
			pad := strings.Repeat(" ", n)
			return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
		},
		"base64":       func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
		"base64Decode": base64Decode,
		"sha256":       func(s string) string { return fmt.Sprintf("%x", sha256.Sum256([]byte(s))) },
		"hasPrefix":    strings.HasPrefix,
		"hasSuffix":    strings.HasSuffix,
		"parseInt64":   func(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) },
		"azID":         func(az string) string { parts := strings.Split(az, "-"); return parts[len(parts)-1] },
		"awsValidID":   func(id string) string { return strings.ReplaceAll(id, ":", "__") },
		"accountID":    accountID,
		"indexedList":  indexedList,
		"dict":         dict,
		"list":         func(items ...interface{}) []interface{} { return items },
		"append":       func(list []string, items ...string) []string { return append(append([]string{}, list...), items...) },
		"asgSize":      asgSize,
		"azCount":      azCount,
	}
}

func join(sep string, value interface{}) string {
	switch v := value.(type) {
	case nil:
		return ""
	case []string:
		return strings.Join(v, sep)
	case []interface{}:
		parts := []string{}
		for _, item := range v {
			if item != nil {
				parts = append(parts, fmt.Sprintf("%v", item))
			}
		}
		return strings.Join(parts, sep)
	}
	return fmt.Sprintf("%v", value)
}

func base64Decode(s string) (string, error) {
	decoded, err := base64.StdEncoding.DecodeString(s)
	return string(decoded), err
}

func accountID(account string) (string, error) {
	parts := strings.Split(account, ":")
	if len(parts) != 2 {
		return "", fmt.Errorf("invalid account: %s", account)
	}
	return parts[1], nil
}

func indexedList(item string, n int64) string {
	items := make([]string, n)
	for i := range items {
		items[i] = strings.ReplaceAll(item, "$", strconv.Itoa(i))
	}
	return strings.Join(items, ",")
}

func dict(args ...interface{}) (map[string]interface{}, error) {
	if len(args)%2 != 0 {
		return nil, fmt.Errorf("dict: odd number of arguments")
	}
	result := map[string]interface{}{}
	for i := 0; i < len(args); i += 2 {
		key, ok := args[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: key %v is not a string", args[i])
		}
		result[key] = args[i+1]
	}
	return result, nil
}

func asgSize(size, count int64) (int64, error) {
	if size%count != 0 {
		return 0, fmt.Errorf("pool size must be an exact multiple of %d", count)
	}
	return size / count, nil
}

func azCount(subnets map[string]string) int {
	n := 0
	for key := range subnets {
		if key != "*" {
			n++
		}
	}
	return n
}
