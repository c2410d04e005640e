include $(sort $(wildcard $(BR2_EXTERNAL_BOARDBENCH_PATH)/package/*/*.mk))
